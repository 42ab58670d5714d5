import type { Sql } from 'postgres';

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
