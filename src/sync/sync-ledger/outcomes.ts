// What happened to claimed objects (the ERP's outcome), and which sync-button request, if any,
// their results are reported under until they are frozen into a batch.
import type { Sql } from 'postgres';
import type { ErrorCategory } from '../../erp/index.ts';

export type Outcome =
  | { objectId: string; ok: true; referenceId: string; deepLinkUrl?: string | undefined }
  | { objectId: string; ok: false; category: ErrorCategory; message: string };

/**
 * Records what the ERP did with each claimed object, before anything is reported: PENDING → IN_ERP
 * (with the ERP's reference) or PENDING → FAILED (with the bookkeeper's message). The state
 * guard in the WHERE makes a late or repeated recording a no-op. The ids are also given as an
 * array the index can seek: joined to the unnest alone, the planner scanned every entry of the
 * connection's PENDING index, which keeps one for each row ever claimed until a vacuum, so each
 * page cost more than the last.
 *
 * The outcomes come sorted by id from behind a fence (OFFSET 0), so they are unnested once, and
 * merged with the index's rows (in that order on PostgreSQL 17 and later; earlier versions sort
 * or hash them, which still unnests once). Joined bare, the planner, sure from its statistics
 * that almost no row is PENDING, expected one row from the index and unnested the six arrays
 * again for each row it found: 100 times a page, 10,000 comparisons, and 60 % of the statement's
 * time (docs/decisions.md, "Tables that grow are read through their keys").
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
    from (
      select * from unnest(
        ${sql.array(ids)}::text[], ${sql.array(states)}::text[], ${sql.array(references as string[])}::text[],
        ${sql.array(links as string[])}::text[], ${sql.array(categories as string[])}::text[],
        ${sql.array(messages as string[])}::text[]
      ) as v(object_id, state, reference_id, deep_link_url, error_category, error_message)
      order by object_id offset 0
    ) as u
    where l.connection_id = ${connectionId} and l.sync_type = ${syncType}
      and l.object_id = any(${sql.array(ids)}::text[])
      and l.object_id = u.object_id and l.state = 'PENDING'`;
  return result.count;
}

export interface AdoptRequest {
  connectionId: string;
  syncType: string;
  syncRequestId: string;
  /** Rows attributed to this request (sync-button/attribute-rows.ts), as read with requested_to_sync=true (F16). */
  objectIds: readonly string[];
}

/**
 * Gives a sync request the outcomes already known for its rows, so they are posted with its
 * sync_request_id now instead of waiting for another run's batch (a background sync collects
 * 5,000 results before posting; the button window is 5 minutes). Only outcomes not yet frozen
 * into a batch move. The caller passes only rows attributed to this request, so an outcome moves
 * even from another open request: the attribution says the row is not that request's.
 */
export async function adoptKnownOutcomes(sql: Sql, request: AdoptRequest): Promise<number> {
  if (request.objectIds.length === 0) return 0;
  const updated = await sql`
    update sync_ledger l set sync_request_id = ${request.syncRequestId}, updated_at = now()
    where l.connection_id = ${request.connectionId} and l.sync_type = ${request.syncType}
      and l.object_id = any(${sql.array(request.objectIds as string[])}::text[])
      and l.batch_id is null and l.state in ('IN_ERP', 'FAILED')
      and l.sync_request_id is distinct from ${request.syncRequestId}`;
  return updated.count;
}

/**
 * After a request closes, outcomes still carrying its id and not yet in a batch go back to the
 * general outbox (sync_request_id null), so the next run of the kind reports them.
 */
export async function releaseLeftovers(
  sql: Sql,
  connectionId: string,
  syncRequestId: string,
): Promise<number> {
  const updated = await sql`
    update sync_ledger set sync_request_id = null, updated_at = now()
    where connection_id = ${connectionId} and sync_request_id = ${syncRequestId}
      and batch_id is null and state in ('IN_ERP', 'FAILED')`;
  return updated.count;
}

/**
 * Known outcomes still tied to a sync-button request that is no longer open (answered by the
 * watchdog, expired, ignored) would wait forever: the request's own run has stopped, and regular
 * runs freeze only rows without a request id. They are released to the regular outbox, to be
 * reported without a sync_request_id, so nothing is left unreported.
 */
export async function releaseClosedRequests(sql: Sql, connectionId: string): Promise<number> {
  const result = await sql`
    update sync_ledger as l set sync_request_id = null, updated_at = now()
    where l.connection_id = ${connectionId} and l.state in ('IN_ERP', 'FAILED') and l.batch_id is null
      and l.sync_request_id is not null
      and not exists (
        select 1 from sync_requests r where r.sync_request_id = l.sync_request_id and r.state = 'OPEN'
      )`;
  return result.count;
}
