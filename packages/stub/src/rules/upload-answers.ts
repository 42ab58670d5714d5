import type { Reply } from '../core/route.ts';

/**
 * Injected fault `upload_answers` (docs/platform.md F41): a chart upload answered with what the
 * published copies allow and no more. Both copies make every field of a batch upload's answer
 * optional, so `{uploaded: [svc_ids]}` (`ids_only`) and `{}` (`empty`) are whole answers; the
 * published field answer requires only `display_name`, `input_type` and `is_required_for`, so a
 * one-item create keeps those (and its `svc_id` under `ids_only`). The upload itself took effect:
 * only the answer is cut down.
 */

/** The upload routes the fault applies to, and the keys each one's answer must keep. */
const UPLOADS: Record<string, { list?: string; required: string[] }> = {
  '/accounting/accounts': { list: 'gl_accounts', required: [] },
  '/accounting/field-options': { list: 'options', required: [] },
  '/accounting/vendors': { list: 'vendors', required: [] },
  '/accounting/tax/rates': { list: 'tax_rates', required: [] },
  '/accounting/tax/code/options': { list: 'options', required: [] },
  '/accounting/fields': { required: ['display_name', 'input_type', 'is_required_for'] },
  '/accounting/tax/code': { required: [] },
};

export function cutUploadAnswer(pattern: string, mode: 'ids_only' | 'empty' | null, reply: Reply): Reply {
  const upload = UPLOADS[pattern];
  if (!upload || mode === null || reply.status !== 201) return reply;
  const body = reply.body as Record<string, unknown>;
  if (upload.list !== undefined) {
    const items = (body[upload.list] ?? []) as { svc_id: string }[];
    const uploaded = (body.uploaded as string[] | undefined) ?? items.map((item) => item.svc_id);
    return { ...reply, body: mode === 'ids_only' ? { uploaded } : {} };
  }
  const kept = Object.fromEntries(upload.required.map((key) => [key, body[key]]));
  return { ...reply, body: mode === 'ids_only' ? { ...kept, svc_id: body.svc_id } : kept };
}
