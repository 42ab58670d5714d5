import type { Sql } from 'postgres';
import type { ErrorCategory } from '../../erp/errors.ts';

export type Outcome =
  | { objectId: string; ok: true; referenceId: string; deepLinkUrl?: string | undefined }
  | { objectId: string; ok: false; category: ErrorCategory; message: string };

/**
 * Records what the ERP did with each claimed object, before anything is reported: PENDING → IN_ERP
 * (with the ERP's reference) or PENDING → FAILED (with the bookkeeper's message). The state
 * guard in the WHERE makes a late or repeated recording a no-op.
 */
export async function recordOutcomes(
  sql: Sql,
  connectionId: string,
  syncType: string,
  outcomes: readonly Outcome[],
): Promise<number> {
  if (outcomes.length === 0) return 0;
  const ids: string[] = [];
  const states: string[] = [];
  const references: (string | null)[] = [];
  const links: (string | null)[] = [];
  const categories: (string | null)[] = [];
  const messages: (string | null)[] = [];
  for (const o of outcomes) {
    ids.push(o.objectId);
    states.push(o.ok ? 'IN_ERP' : 'FAILED');
    references.push(o.ok ? o.referenceId : null);
    links.push(o.ok ? (o.deepLinkUrl ?? null) : null);
    categories.push(o.ok ? null : o.category);
    messages.push(o.ok ? null : o.message);
  }
  const result = await sql`
    update sync_ledger as l
    set state = u.state,
        outcome = case when u.state = 'IN_ERP' then 'success' else 'failure' end,
        reference_id = u.reference_id,
        deep_link_url = u.deep_link_url,
        error_category = u.error_category,
        error_message = u.error_message,
        updated_at = now()
    from unnest(
      ${sql.array(ids)}::text[], ${sql.array(states)}::text[], ${sql.array(references as string[])}::text[],
      ${sql.array(links as string[])}::text[], ${sql.array(categories as string[])}::text[],
      ${sql.array(messages as string[])}::text[]
    ) as u(object_id, state, reference_id, deep_link_url, error_category, error_message)
    where l.connection_id = ${connectionId} and l.sync_type = ${syncType}
      and l.object_id = u.object_id and l.state = 'PENDING'`;
  return result.count;
}
