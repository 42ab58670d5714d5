// Claiming sync-ledger rows for the ready objects of a page, before their ERP writes.
import type { Sql } from 'postgres';

export interface ClaimRequest {
  connectionId: string;
  syncType: string;
  objectIds: readonly string[];
  /** Set for sync-button rows, so their results are posted with this id (docs/platform.md G28). */
  syncRequestId?: string | undefined;
}

/**
 * Claims ledger rows for objects the platform shows as ready, and returns the ids whose ERP
 * write is due now (rows in PENDING). In one statement:
 * - a new object gets a PENDING row;
 * - a PENDING row (a crash between claim and outcome) stays due: the ERP call is idempotent by
 *   object id, so repeating it returns the first result instead of writing twice (for an ERP
 *   that may carry out the interrupted call late, the caller waits for it first: in-doubt.ts);
 * - a REPORTED failure that is ready again (the customer fixed the coding) goes back to PENDING
 *   for another attempt, at once, unless it answered the very sync-button request claiming it
 *   now: that request is answered for the row (docs/platform.md G28), and its page was read
 *   before the answer (the watchdog answered while the run was still writing), so a second
 *   result would answer the row twice;
 * - a REPORTED success the platform accepted goes back to PENDING only when it was reported more
 *   than 10 minutes ago (the platform re-opened it): a page read moments before another run
 *   reported the row is stale, and re-reporting it would only earn a REJECTED "already synced";
 * - IN_ERP and FAILED rows are not due: their outcome is known and waits in the outbox.
 */
export async function claimRows(sql: Sql, request: ClaimRequest): Promise<string[]> {
  if (request.objectIds.length === 0) return [];
  const rows = await sql<{ object_id: string }[]>`
    insert into sync_ledger (connection_id, object_id, sync_type, state, sync_request_id)
    select ${request.connectionId}, id, ${request.syncType}, 'PENDING', ${request.syncRequestId ?? null}
    from unnest(${sql.array(request.objectIds as string[])}::text[]) as id
    on conflict (connection_id, object_id, sync_type) do update
      set state = 'PENDING',
          attempts = sync_ledger.attempts + 1,
          batch_id = null,
          outcome = null,
          sync_request_id = coalesce(excluded.sync_request_id, sync_ledger.sync_request_id),
          updated_at = now()
      where sync_ledger.state = 'PENDING'
        or (sync_ledger.state = 'REPORTED' and sync_ledger.outcome = 'failure' and (
          excluded.sync_request_id is null
          or sync_ledger.sync_request_id is distinct from excluded.sync_request_id
          or sync_ledger.platform_status = 'REJECTED'))
        or (sync_ledger.state = 'REPORTED' and sync_ledger.outcome is distinct from 'failure' and (
          sync_ledger.platform_status is distinct from 'SYNCED'
          or sync_ledger.updated_at < now() - interval '10 minutes'))
    returning object_id`;
  return rows.map((r) => r.object_id);
}
