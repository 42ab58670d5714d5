import type { Sql } from 'postgres';

/**
 * A sync-button request recorded under the connection the customer left (the webhook receiver
 * names the connection the worker started with) belongs to the connection the customer uses now:
 * its run and its watchdog read and answer it there. Only an open request of `from` moves.
 */
export async function rehomeSyncRequest(
  sql: Sql,
  syncRequestId: string,
  connections: { from: string; to: string },
): Promise<boolean> {
  const moved = await sql`
    update sync_requests set connection_id = ${connections.to}
     where sync_request_id = ${syncRequestId} and connection_id = ${connections.from} and state = 'OPEN'`;
  return moved.count > 0;
}
