import type { Sql } from 'postgres';
import type { Logger } from '../../log.ts';
import type { SyncType } from '../../platform/index.ts';
import { SYNC_TYPE_ORDER } from '../objects/index.ts';
import { ackBatch, noteBatchFailure } from './ack-batch.ts';
import { DEFAULT_LEASE_TIMING, type LeaseTiming, sendUnderLease, type WhenLeased } from './batch-lease.ts';
import { type FrozenBatch, freezeBatch, RESULT_BATCH_MAX } from './freeze-batch.ts';
import { frozenBatches } from './frozen-batches.ts';
import { countUnbatchedOutcomes } from './ledger-batches.ts';
import type { ResultPoster } from './post-outcome.ts';

export interface ReportCounts {
  batches: number;
  items: number;
  rejected: number;
}

/** Adds `more` to `into`: the counts of several sends make one. */
export function addReport(into: ReportCounts, more: ReportCounts): void {
  into.batches += more.batches;
  into.items += more.items;
  into.rejected += more.rejected;
}

export interface ReportContext {
  sql: Sql;
  platform: ResultPoster;
  connectionId: string;
  log: Logger;
  /** Lease length and waits of result batches (batch-lease.ts); tests shorten them. */
  lease?: Partial<LeaseTiming>;
}

/**
 * Posts a frozen batch and starts its acknowledgement, which the caller awaits: the next batch of
 * the same sync type is posted meanwhile (see sendFrozen). A failed post or acknowledgement is
 * noted on the batch, which stays FROZEN and is sent again as frozen.
 */
async function send(
  context: ReportContext,
  batch: FrozenBatch,
  owner: string,
  counts: ReportCounts,
): Promise<{ acknowledged: Promise<void> }> {
  const failed = async (error: unknown): Promise<never> => {
    await noteBatchFailure(
      context.sql,
      batch.id,
      error instanceof Error ? error.message : String(error),
      owner,
    );
    throw error;
  };
  const outcome = await context.platform.postSyncs(batch.body).catch(failed);
  const acknowledged = (async () => {
    const response = outcome.kind === 'acknowledged' ? outcome.response : null;
    await ackBatch(context.sql, batch.id, { syncId: response?.sync_id ?? null, response }).catch(failed);
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
  })();
  acknowledged.catch(() => undefined); // awaited by sendFrozen; never unhandled meanwhile
  return { acknowledged };
}

/**
 * Sends a frozen batch under a lease on its row (batch-lease.ts) unless it was acknowledged
 * meanwhile. Two processes may list the same frozen batch: posting it twice changes nothing on
 * the platform (one idempotency key, F15) but spends a request of the rate budget (benchmark 1c:
 * 8 of 19 result posts were such repeats), so the second sender waits for the holder rather than
 * posting too, which also keeps the order of sync types (G23). No transaction or lock is held
 * across the post: a sender that stops mid-send holds the batch up for one lease, and no one else.
 */
async function sendOnce(
  context: ReportContext,
  batch: FrozenBatch,
  whenLeased: WhenLeased,
  counts: ReportCounts,
): Promise<{ outcome: 'sent' | 'acknowledged' | 'skipped'; acknowledged: Promise<void> | null }> {
  const timing = { ...DEFAULT_LEASE_TIMING, ...context.lease };
  let acknowledged: Promise<void> | null = null;
  const outcome = await sendUnderLease(context.sql, batch.id, { timing, whenLeased }, async (owner) => {
    acknowledged = (await send(context, batch, owner, counts)).acknowledged;
  });
  return { outcome, acknowledged };
}

/** Waits for every acknowledgement started; the first that failed is thrown once all are done. */
async function settle(acknowledgements: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(acknowledgements.splice(0));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
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
    /**
     * A batch another sender holds: waited for (the default), or left to its holder (a
     * sync-button press: see freezeAndSend).
     */
    whenLeased?: WhenLeased;
  } = {},
): Promise<ReportCounts> {
  const counts: ReportCounts = { batches: 0, items: 0, rejected: 0 };
  const pending = await frozenBatches(context.sql, context.connectionId, filter);
  const wanted = filter.syncTypes ? new Set<string>(filter.syncTypes) : null;
  const rank = (b: FrozenBatch) => SYNC_TYPE_ORDER.indexOf(b.syncType as SyncType);
  const ordered = pending
    .filter((b) => !wanted || wanted.has(b.syncType))
    .sort((a, b) => rank(a) - rank(b) || Number(a.id) - Number(b.id));
  // G23: a later sync type is never sent while an earlier type's batch is unacknowledged. A failed
  // send throws and ends the loop; a batch left to its holder ends the sending of later types too
  // (they stay frozen for the next run), while more batches of its own type still go. Within one
  // type a batch is posted once the one before it is answered, while that one's acknowledgement
  // (an UPDATE of up to 5,000 ledger rows) runs: the end of a run waited for each in turn.
  let skippedRank: number | null = null;
  let sendingRank: number | null = null;
  const acknowledgements: Promise<void>[] = [];
  try {
    for (const batch of ordered) {
      if (skippedRank !== null && rank(batch) > skippedRank) break;
      if (sendingRank !== null && rank(batch) !== sendingRank) await settle(acknowledgements);
      sendingRank = rank(batch);
      const sent = await sendOnce(context, batch, filter.whenLeased ?? 'wait', counts);
      if (sent.acknowledged) acknowledgements.push(sent.acknowledged);
      if (sent.outcome === 'skipped') skippedRank ??= rank(batch);
    }
  } catch (error) {
    await Promise.allSettled(acknowledgements);
    throw error;
  }
  await settle(acknowledgements);
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
  // bulk run holding one's lease while it waits for a bulk permit would hold the press's answer
  // up). Batches a crash left are sent when a run starts (sendFrozen with no filter).
  // A press skips a batch another sender holds instead of waiting for it: the holder is sending
  // it, and a press must not wait behind a stopped sender (a GC pause, a frozen VM) for a whole
  // lease. If that holder did stop, its lease lapses long before the press's watchdog looks
  // (RESULT_BATCH_LEASE_MS), and the watchdog or the next run takes the batch over.
  return sendFrozen(context, {
    syncTypes,
    ...(options.syncRequestId ? pressBatches(options.syncRequestId) : { withoutRequests: true }),
  });
}

/**
 * The batches a sync-button press sends: only its own, and one another sender holds is left to
 * that holder rather than waited for (see freezeAndSend).
 */
function pressBatches(syncRequestId: string) {
  return { syncRequestId, whenLeased: 'skip' as const };
}

/**
 * What a run sends before it reads: batches an earlier run froze but could not send, exactly as
 * frozen (F15). A bulk run sends every batch of its sync types, a press's leftovers too, and waits
 * for one another sender holds (it would be sent again otherwise). A press sends only its own:
 * the bulk run's batches (5,000 items a post) are that run's to send, and a press that posted
 * them kept its rows waiting (docs/platform.md G28).
 */
export function sendLeftBatches(
  context: ReportContext,
  syncTypes: readonly SyncType[],
  syncRequestId?: string,
): Promise<ReportCounts> {
  return sendFrozen(context, {
    syncTypes,
    ...(syncRequestId ? pressBatches(syncRequestId) : { whenLeased: 'wait' as const }),
  });
}
