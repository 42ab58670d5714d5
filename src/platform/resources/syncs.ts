import { z } from 'zod';
import { type ItemResult, parseItems } from '../parse.ts';
import { MERCHANT_FIELD_EXTERNAL_ID } from '../schemas/objects.ts';
import {
  CodingRequest,
  CodingResponse,
  ReadyToSyncRequest,
  SyncRequest,
  SyncResult,
} from '../schemas/syncs.ts';
import { checkBody, fetchOne, type ResourceContext } from './context.ts';

/**
 * A sync answer with each result parsed on its own (one odd result never hides the others).
 * `results` is empty when the platform sent none: the published answer is `201 {sync_id}` only,
 * which means every item was applied (docs/platform.md F33).
 */
export interface SyncAnswer {
  sync_id: string | null;
  sync_request_id: string | null;
  results: ItemResult<SyncResult>[];
  /** False when the answer carried no per-item results (F33). */
  itemResults: boolean;
}

/**
 * Outcome of POST /accounting/syncs (docs/platform.md F14, F15, F33):
 * - `alreadyApplied: false`: the platform answered this post (a replay of the first answer
 *   included).
 * - `alreadyApplied: true`: an earlier post of this very body under this key took effect;
 *   `answer` is its recorded answer, or null when that answer was lost on the way.
 */
export type SyncOutcome =
  | { alreadyApplied: false; answer: SyncAnswer }
  | { alreadyApplied: true; answer: SyncAnswer | null };

/** Results of syncs (F14, F15), codings (F18) and ready-to-sync marks (F19). */
export function syncsResource(ctx: ResourceContext) {
  return {
    /**
     * Posts sync results under body.idempotency_key. Retries (5xx, 429, 504, lost responses)
     * resend the same body and key; a 7005 for a key this client sent with the same body is
     * "already applied" (F15); with a different body it is an IdempotencyConflictError.
     */
    async postResults(body: z.input<typeof SyncRequest>): Promise<SyncOutcome> {
      const path = '/accounting/syncs';
      checkBody(SyncRequest, body, `POST ${path}`);
      const result = await ctx.sendIdempotent(body.idempotency_key, { method: 'POST', path, body });
      if (result.alreadyApplied && result.body === null) return { alreadyApplied: true, answer: null };
      const answer = parseSyncAnswer(result.body);
      return result.alreadyApplied ? { alreadyApplied: true, answer } : { alreadyApplied: false, answer };
    },

    /** F18: codes an object (e.g. its accounting vendor under field external id "Merchant"). */
    async code(body: z.input<typeof CodingRequest>): Promise<CodingResponse> {
      checkBody(CodingRequest, body, 'POST /accounting/codings');
      return fetchOne(ctx, { method: 'POST', path: '/accounting/codings', body }, CodingResponse);
    },

    /** F18: codes a transaction to the accounting vendor with this ERP remote id. */
    codeTransactionVendor(transactionId: string, vendorRemoteId: string): Promise<CodingResponse> {
      return this.code(vendorCodingBody(transactionId, vendorRemoteId));
    },

    /** F19: marks up to 500 objects ready to sync (204). */
    async markReadyToSync(body: z.input<typeof ReadyToSyncRequest>): Promise<void> {
      checkBody(ReadyToSyncRequest, body, 'POST /accounting/ready-to-sync');
      await ctx.send({ method: 'POST', path: '/accounting/ready-to-sync', body });
    },
  };
}

/**
 * The one place the codings body is built (docs/platform.md F35): the endpoint is beta and its
 * published write-ups differ (`accounting_field_selections` with remote ids here, F18;
 * `accounting_coding_selections` with platform ids elsewhere), so a change is one line here.
 */
function vendorCodingBody(transactionId: string, vendorRemoteId: string): z.input<typeof CodingRequest> {
  return {
    object_type: 'TRANSACTION',
    object_id: transactionId,
    accounting_field_selections: [
      { field_external_id: MERCHANT_FIELD_EXTERNAL_ID, field_option_external_id: vendorRemoteId },
    ],
  };
}

/**
 * The answer's envelope, read tolerantly: a 2xx to a sync post means the platform applied it
 * (F14, F33), so the answer is never refused for its shape. Refusing it would leave the batch
 * unacknowledged and resent under the same key on every later run.
 */
const SyncAnswerEnvelope = z.looseObject({
  sync_id: z.string().min(1).nullish().catch(null),
  sync_request_id: z.string().nullish().catch(null),
  results: z.array(z.unknown()).nullish().catch(null),
});

function parseSyncAnswer(body: unknown): SyncAnswer {
  const parsed = SyncAnswerEnvelope.safeParse(body);
  const envelope = parsed.success ? parsed.data : { sync_id: null, sync_request_id: null, results: null };
  return {
    sync_id: envelope.sync_id ?? null,
    sync_request_id: envelope.sync_request_id ?? null,
    results: parseItems(SyncResult, envelope.results ?? [], 'sync result'),
    itemResults: Array.isArray(envelope.results),
  };
}
