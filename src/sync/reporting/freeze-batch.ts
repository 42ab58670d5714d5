import type { Sql } from 'postgres';
import { hasPublicHost } from '../../public-url.ts';
import { batchIdempotencyKey } from './batch-key.ts';
import { assignToBatch, lockUnbatchedOutcomes, type UnbatchedOutcome } from './ledger-batches.ts';

/** F14: at most 5,000 successful and 5,000 failed items per call; we cap the batch as a whole. */
export const RESULT_BATCH_MAX = 5000;

export interface FrozenBatch {
  id: string;
  connectionId: string;
  syncType: string;
  syncRequestId: string | null;
  body: SyncBody;
  idempotencyKey: string;
  itemCount: number;
}

export interface SyncBody {
  idempotency_key: string;
  sync_type: string;
  successful_syncs?: { id: string; reference_id: string; deep_link_url?: string }[];
  failed_syncs?: { id: string; error: { message: string } }[];
  sync_request_id?: string;
}

function buildBody(
  syncType: string,
  syncRequestId: string | null,
  rows: UnbatchedOutcome[],
): Omit<SyncBody, 'idempotency_key'> {
  const successes = rows
    .filter((r) => r.outcome === 'success')
    .map((r) => ({
      id: r.object_id,
      reference_id: r.reference_id as string,
      // F42: a link recorded before the ERP had a public base (http://localhost…) is not sent.
      ...(r.deep_link_url && hasPublicHost(r.deep_link_url) ? { deep_link_url: r.deep_link_url } : {}),
    }));
  const failures = rows
    .filter((r) => r.outcome === 'failure')
    .map((r) => ({ id: r.object_id, error: { message: r.error_message ?? 'The sync failed.' } }));
  // F14: an empty list is refused, so a list with no items is omitted rather than sent empty.
  return {
    sync_type: syncType,
    ...(successes.length ? { successful_syncs: successes } : {}),
    ...(failures.length ? { failed_syncs: failures } : {}),
    ...(syncRequestId ? { sync_request_id: syncRequestId } : {}),
  };
}

/**
 * Freezes up to `max` known outcomes of one sync type (and one sync-button request, or none)
 * into a result batch, in the same transaction that claims their ledger rows. From then on the
 * batch is sent exactly as frozen, however often it is retried. Returns null when fewer than
 * `min` (default 1) wait: rows another process is freezing at this moment are skipped, so a
 * count taken before is no promise, and a batch meant to be full is not sent with what is left.
 */
export async function freezeBatch(
  sql: Sql,
  options: {
    connectionId: string;
    syncType: string;
    syncRequestId?: string | null;
    max?: number;
    min?: number;
  },
): Promise<FrozenBatch | null> {
  const syncRequestId = options.syncRequestId ?? null;
  return sql.begin(async (tx) => {
    const scope = { connectionId: options.connectionId, syncType: options.syncType, syncRequestId };
    const rows = await lockUnbatchedOutcomes(tx, scope, options.max ?? RESULT_BATCH_MAX);
    if (rows.length === 0 || rows.length < (options.min ?? 1)) return null;
    const [{ id }] =
      (await tx`select nextval(pg_get_serial_sequence('result_batches', 'id')) as id`) as unknown as [
        { id: string },
      ];
    const unkeyed = buildBody(options.syncType, syncRequestId, rows);
    const idempotencyKey = batchIdempotencyKey(options.connectionId, id, unkeyed);
    const body: SyncBody = { idempotency_key: idempotencyKey, ...unkeyed };
    await tx`
      insert into result_batches (id, connection_id, sync_type, sync_request_id, body, idempotency_key, item_count, state)
      values (${id}, ${options.connectionId}, ${options.syncType}, ${syncRequestId}, ${tx.json(body as never)},
              ${idempotencyKey}, ${rows.length}, 'FROZEN')`;
    await assignToBatch(
      tx,
      scope,
      rows.map((r) => r.object_id),
      id,
    );
    return {
      id: String(id),
      connectionId: options.connectionId,
      syncType: options.syncType,
      syncRequestId,
      body,
      idempotencyKey,
      itemCount: rows.length,
    };
  }) as Promise<FrozenBatch | null>;
}
