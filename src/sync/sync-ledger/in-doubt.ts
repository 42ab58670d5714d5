// Objects an interrupted run left claimed, whose ERP write may still be landing.
import type { Sql } from 'postgres';

export interface InDoubtRequest {
  connectionId: string;
  syncType: string;
  objectIds: readonly string[];
}

/**
 * How long to wait before writing these objects again, in ms (0: at once). A row still PENDING
 * was claimed by a run that never recorded its outcome: the run was interrupted, perhaps while
 * the ERP was working on its call. An ERP that finds its records with a look-up before a create
 * (ErpAdapter.writeSettleMs) may still carry that call out after the run is gone; a retry looking
 * up before it lands would post the object a second time. So a row is written again only
 * `settleMs` after its claim, which was made just before the interrupted write began.
 *
 * Both times are the database's own clock, so the wait does not depend on this host's clock. A
 * run holds its kind's lock (lock-name.ts), so a PENDING row it finds is never another live run's.
 */
export async function inDoubtForMs(sql: Sql, request: InDoubtRequest, settleMs: number): Promise<number> {
  if (settleMs <= 0 || request.objectIds.length === 0) return 0;
  const [row] = await sql<{ wait_ms: number | null }[]>`
    select max(${settleMs}::float8 - extract(epoch from now() - updated_at) * 1000)::float8 as wait_ms
    from sync_ledger
    where connection_id = ${request.connectionId} and sync_type = ${request.syncType}
      and state = 'PENDING' and object_id = any(${sql.array(request.objectIds as string[])}::text[])`;
  const waitMs = row?.wait_ms ?? 0;
  return waitMs > 0 ? Math.min(Math.ceil(waitMs), settleMs) : 0;
}
