import type { Sql } from 'postgres';

export interface AdoptRequest {
  connectionId: string;
  syncType: string;
  syncRequestId: string;
  /** Rows attributed to this request (attribute-rows.ts), as read with requested_to_sync=true (F16). */
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
