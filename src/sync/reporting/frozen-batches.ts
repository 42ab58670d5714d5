import type { Sql } from 'postgres';
import type { FrozenBatch, SyncBody } from './freeze-batch.ts';

/** Frozen batches not yet acknowledged, oldest first (a crash leaves them here to be resent). */
export async function frozenBatches(
  sql: Sql,
  connectionId: string,
  filter: { syncType?: string; syncRequestId?: string; withoutRequests?: boolean } = {},
): Promise<FrozenBatch[]> {
  const rows = await sql<
    {
      id: string;
      sync_type: string;
      sync_request_id: string | null;
      body: SyncBody;
      idempotency_key: string;
      item_count: number;
    }[]
  >`
    select id, sync_type, sync_request_id, body, idempotency_key, item_count
    from result_batches
    where connection_id = ${connectionId} and state = 'FROZEN'
      ${filter.syncType ? sql`and sync_type = ${filter.syncType}` : sql``}
      ${filter.syncRequestId ? sql`and sync_request_id = ${filter.syncRequestId}` : sql``}
      ${filter.withoutRequests ? sql`and sync_request_id is null` : sql``}
    order by id`;
  return rows.map((r) => ({
    id: String(r.id),
    connectionId,
    syncType: r.sync_type,
    syncRequestId: r.sync_request_id,
    body: r.body,
    idempotencyKey: r.idempotency_key,
    itemCount: r.item_count,
  }));
}

/** Frozen batches not yet acknowledged, and the items they hold, per sync type. */
export async function frozenCountsBySyncType(
  sql: Sql,
  connectionId: string,
): Promise<{ syncType: string; batches: number; items: number }[]> {
  return sql<{ syncType: string; batches: number; items: number }[]>`
    select sync_type as "syncType", count(*)::int as batches, coalesce(sum(item_count), 0)::int as items
    from result_batches where connection_id = ${connectionId} and state = 'FROZEN'
    group by sync_type`;
}
