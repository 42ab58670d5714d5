import type { Sql } from 'postgres';
import type { Logger } from '../../log.ts';
import type { SyncType } from '../../platform/schemas/syncs.ts';
import { ackBatch, noteBatchFailure } from '../outbox/ack-batch.ts';
import { whileBatchFrozen } from '../outbox/batch-lock.ts';
import { type FrozenBatch, freezeBatch, RESULT_BATCH_MAX } from '../outbox/freeze-batch.ts';
import { frozenBatches } from '../outbox/frozen-batches.ts';
import { countUnbatchedOutcomes } from '../sync-ledger/batches.ts';
import { SYNC_TYPE_ORDER } from './kinds.ts';
import type { SyncPlatform } from './platform-port.ts';

export interface ReportCounts {
  batches: number;
  items: number;
  rejected: number;
}

export interface ReportContext {
  sql: Sql;
  platform: SyncPlatform;
  connectionId: string;
  log: Logger;
}

async function send(context: ReportContext, batch: FrozenBatch, counts: ReportCounts): Promise<void> {
  try {
    const outcome = await context.platform.postSyncs(batch.body);
    const response = outcome.kind === 'acknowledged' ? outcome.response : null;
    await ackBatch(context.sql, batch.id, { syncId: response?.sync_id ?? null, response });
    counts.batches++;
    counts.items += batch.itemCount;
    const rejected = response?.results.filter((r) => r.status === 'REJECTED') ?? [];
    counts.rejected += rejected.length;
    if (rejected.length > 0) {
      context.log.warn(
        { batchId: batch.id, syncType: batch.syncType, rejected: rejected.slice(0, 5) },
        `${rejected.length} results rejected by the platform (already synced elsewhere, or not ready)`,
      );
    }
  } catch (error) {
    await noteBatchFailure(context.sql, batch.id, error instanceof Error ? error.message : String(error));
    throw error;
  }
}

/**
 * Sends a frozen batch unless it was acknowledged meanwhile (whileBatchFrozen). Two processes may
 * list the same frozen batch: posting it twice changes nothing on the platform (one idempotency
 * key, F15) but spends a request of the rate budget (benchmark 1c: 8 of 19 result posts were
 * such repeats). The second sender waits rather than skips, which keeps the order of sync types
 * (G23).
 */
async function sendOnce(context: ReportContext, batch: FrozenBatch, counts: ReportCounts): Promise<void> {
  await whileBatchFrozen(context.sql, batch.id, () => send(context, batch, counts));
}

/**
 * Sends every frozen batch of the connection (oldest first, bills before bill payments, docs/platform.md G23:
 * the platform accepts BILL_PAYMENT_SYNC only for a bill already BILL_SYNCED). Batches left by an earlier
 * crash go first, exactly as frozen. A batch that cannot be sent stays FROZEN for the next run.
 */
export async function sendFrozen(
  context: ReportContext,
  filter: {
    syncTypes?: readonly SyncType[];
    /** Only the batches of this sync-button request. */
    syncRequestId?: string;
    /** Only batches of no sync-button request. */
    withoutRequests?: boolean;
  } = {},
): Promise<ReportCounts> {
  const counts: ReportCounts = { batches: 0, items: 0, rejected: 0 };
  const pending = await frozenBatches(context.sql, context.connectionId, filter);
  const wanted = filter.syncTypes ? new Set<string>(filter.syncTypes) : null;
  const ordered = pending
    .filter((b) => !wanted || wanted.has(b.syncType))
    .sort(
      (a, b) =>
        SYNC_TYPE_ORDER.indexOf(a.syncType as SyncType) - SYNC_TYPE_ORDER.indexOf(b.syncType as SyncType) ||
        Number(a.id) - Number(b.id),
    );
  for (const batch of ordered) await sendOnce(context, batch, counts);
  return counts;
}

/**
 * Freezes what waits for the given sync types, then sends all frozen batches in order.
 * `minItems` lets the pipeline wait until a full batch (5,000) has gathered mid-run. When a later
 * type is due, every earlier type is flushed first, even partly filled: a bill payment must never
 * reach the platform before its bill (docs/platform.md G23).
 */
export async function freezeAndSend(
  context: ReportContext,
  syncTypes: readonly SyncType[],
  options: { syncRequestId?: string; minItems?: number } = {},
): Promise<ReportCounts> {
  const waiting = await Promise.all(
    syncTypes.map((syncType) =>
      countUnbatchedOutcomes(context.sql, {
        connectionId: context.connectionId,
        syncType,
        syncRequestId: options.syncRequestId,
      }),
    ),
  );
  let lastDue = -1;
  waiting.forEach((count, i) => {
    if (count >= (options.minItems ?? 1)) lastDue = i;
  });
  for (const [i, syncType] of syncTypes.slice(0, lastDue + 1).entries()) {
    // The due type freezes whole batches only, leaving a remainder below minItems for later;
    // the types before it are flushed entirely (their rows must reach the platform first).
    let left = waiting[i] ?? 0;
    const keepBelow = i === lastDue ? (options.minItems ?? 1) : 1;
    while (left >= keepBelow) {
      const batch = await freezeBatch(context.sql, {
        connectionId: context.connectionId,
        syncType,
        syncRequestId: options.syncRequestId ?? null,
        max: RESULT_BATCH_MAX,
        // The count above may include rows another process is freezing right now (several
        // processes share a run, jobs/join-runs.ts): a batch due full is frozen full or not at all.
        min: keepBelow,
      });
      if (!batch) break;
      left -= batch.itemCount;
    }
  }
  // A bulk run leaves a press's batches to the press (its run posts them in the priority lane; a
  // bulk run holding one's lock while it waits for a bulk permit would hold the press's answer
  // up). Batches a crash left are sent when a run starts (sendFrozen with no filter).
  return sendFrozen(context, {
    syncTypes,
    ...(options.syncRequestId ? { syncRequestId: options.syncRequestId } : { withoutRequests: true }),
  });
}
