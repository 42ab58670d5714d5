import type { Sql } from 'postgres';
import type { Logger } from '../src/log.ts';
import {
  type Queues,
  type SyncButtonPayload,
  syncButtonJobId,
  watchdogDelay,
  watchdogJobId,
} from '../src/queue/index.ts';
import {
  expireOverdueRequests,
  leadBounds,
  type OpenRequest,
  OVERDUE_GRACE_MS,
  openRequestsInWindow,
  planRecovery,
  SYNC_WINDOW_MS,
} from '../src/sync/sync-button/index.ts';
import { releaseLeftovers } from '../src/sync/sync-ledger/index.ts';

/** Every worker looks for lost presses this often, and once when it starts. */
export const RECOVER_PRESSES_EVERY_MS = 15_000;

export interface RecoverPressesDeps {
  sql: Sql;
  queues: Pick<Queues, 'syncButton' | 'syncWatchdog'>;
  log: Logger;
  /** A fixed watchdog lead (tests); unset, the watchdog sets its start from the latency seen (jobs/watchdog.ts). */
  watchdogLeadMs?: number | undefined;
}

export interface RecoveredPresses {
  /** Open presses whose jobs were all in Redis. */
  intact: number;
  /** Presses one or both of whose jobs Redis had lost, and that were enqueued again. */
  recovered: number;
  /** Presses past their deadline that nothing had answered, closed as EXPIRED. */
  expired: number;
}

/**
 * Puts back the jobs of sync-button presses that Redis lost (src/sync/sync-button/lost-presses.ts
 * says when, and what), and closes presses that passed their deadline unanswered. Harmless when
 * several workers do it at once: the jobs are enqueued under the press's own ids, which BullMQ
 * keeps once, and a press is expired by one statement that only an OPEN row passes.
 */
export async function recoverLostPresses(deps: RecoverPressesDeps): Promise<RecoveredPresses> {
  const result: RecoveredPresses = { intact: 0, recovered: 0, expired: 0 };
  for (const press of await openRequestsInWindow(deps.sql)) {
    if (await recoverPress(deps, press)) result.recovered++;
    else result.intact++;
  }
  for (const closed of await expireOverdueRequests(deps.sql, OVERDUE_GRACE_MS)) {
    await releaseLeftovers(deps.sql, closed.connectionId, closed.syncRequestId);
    deps.log.warn(
      { syncRequestId: closed.syncRequestId, objectType: closed.objectType, overdueMs: closed.overdueMs },
      'sync-button press closed as EXPIRED: nothing answered it within its 5-minute window, so the ' +
        'platform marked its rows failed; they stay ready and the next sync writes them',
    );
    result.expired++;
  }
  return result;
}

async function recoverPress(deps: RecoverPressesDeps, press: OpenRequest): Promise<boolean> {
  const { syncButton, syncWatchdog } = deps.queues;
  const runId = syncButtonJobId(press.syncRequestId);
  const watchdogId = watchdogJobId(press.syncRequestId);
  const [run, watchdog] = await Promise.all([
    syncButton.getJobState(runId),
    syncWatchdog.getJobState(watchdogId),
  ]);
  const fixed = deps.watchdogLeadMs;
  // Unless a lead is fixed, the watchdog starts at least the shortest lead before the deadline,
  // and first wakes at the longest to look at the latency seen (src/queue/enqueue.ts, watchdog-lead.ts).
  const bounds = leadBounds(SYNC_WINDOW_MS);
  const plan = planRecovery({
    leftMs: press.leftMs,
    watchdogLeadMs: fixed ?? bounds.minLeadMs,
    run,
    watchdog,
    // The delay is what a press with this much left gets (src/queue/enqueue.ts), on the database's clock.
    watchdogDelay: (leftMs) => watchdogDelay(leftMs, 0, fixed ?? bounds.maxLeadMs),
  });
  if (!plan) return false;
  const payload: SyncButtonPayload = {
    connectionId: press.connectionId,
    objectType: press.objectType,
    syncRequestId: press.syncRequestId,
    deadline: press.deadline.toISOString(),
  };
  if (plan.run) await syncButton.add('sync button', payload, { jobId: runId });
  if (plan.watchdogDelayMs !== null) {
    const watchdogPayload = fixed === undefined ? payload : { ...payload, watchdogLeadMs: fixed };
    await syncWatchdog.add('sync-button watchdog', watchdogPayload, {
      jobId: watchdogId,
      delay: plan.watchdogDelayMs,
    });
  }
  deps.log.warn(
    {
      syncRequestId: press.syncRequestId,
      objectType: press.objectType,
      lost: plan.lost,
      leftMs: press.leftMs,
      run: plan.run ? 'enqueued again' : plan.lost.includes('run') ? 'too little time left' : 'in the queue',
      watchdogInMs: plan.watchdogDelayMs,
    },
    'sync-button press had lost its queued jobs (Redis restarted without its data, or evicted ' +
      'them); enqueued again so it is answered before its deadline',
  );
  return true;
}

export interface RunningPressRecovery {
  stop(): Promise<void>;
}

/**
 * Runs recoverLostPresses now and every `everyMs`. A check never overlaps the previous one
 * (while Redis or PostgreSQL is down a call can wait a long time); a failed check is retried at
 * the next tick, and while Redis is down it says so only at debug level, since the Redis watch
 * already logs the outage once.
 */
export function startPressRecovery(
  deps: RecoverPressesDeps & { redisDown?: () => boolean },
  everyMs = RECOVER_PRESSES_EVERY_MS,
): RunningPressRecovery {
  let pending: Promise<void> | null = null;
  let stopped = false;
  const check = () => {
    if (pending || stopped) return;
    pending = recoverLostPresses(deps)
      .then(() => undefined)
      .catch((error: unknown) => {
        const level = stopped || deps.redisDown?.() ? 'debug' : 'warn';
        deps.log[level]({ err: error }, 'could not check sync-button presses for lost jobs; retrying');
      })
      .finally(() => {
        pending = null;
      });
  };
  check();
  const timer = setInterval(check, everyMs);
  timer.unref();
  return {
    /**
     * Stops the checks without waiting for one under way: it is safe to cut short (what it
     * enqueued is enqueued; the next worker's check does the rest), and one that fails as the
     * process closes its connections is not worth a warning.
     */
    async stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
