import { DelayedError, type Job } from 'bullmq';
import type { AppContext } from '../src/app/index.ts';
import { runWithPriority } from '../src/platform/index.ts';
import { QUEUE_NAMES, SyncButtonPayload } from '../src/queue/index.ts';
import { answerUnfinished, type WatchdogResult, watchdogWaitMs } from '../src/sync/sync-button/index.ts';
import { parseJobData } from './parse-job.ts';

export type WatchdogDeps = Pick<AppContext, 'sql' | 'syncPlatform' | 'log'>;

/**
 * Thin processor: the delayed job enqueued with every sync-button press (src/queue/enqueue.ts). It
 * first wakes a tenth of the window after the press, and from then on decides from the platform
 * latency recorded so far and how far the press's reads got (src/sync/sync-button/
 * watchdog-lead.ts): start now, or wait again (at most a tenth of the window, so a platform that
 * slows down, or a run that stops reading, is seen in time). A delay set once at the press could
 * not be brought forward when the latency grew. Once started, the watchdog itself waits for the
 * moment it answers. A lead fixed by the receiver's configuration (`watchdogLeadMs` in the
 * payload) is kept as it is, and the watchdog then answers as soon as it has read what is left.
 * Its reads and posts race the customer's deadline, so they take the limiter's priority lane too.
 */
export async function processSyncWatchdog(
  job: Job,
  deps: WatchdogDeps,
  token?: string,
): Promise<WatchdogResult> {
  const payload = parseJobData(SyncButtonPayload, job.data, QUEUE_NAMES.syncWatchdog);
  const fixed = payload.watchdogLeadMs !== undefined;
  if (!fixed && token !== undefined) {
    const waitMs = await watchdogWaitMs(deps.sql, payload);
    if (waitMs !== null) {
      // BullMQ's delay runs on this process's clock: only the duration is carried over.
      await job.moveToDelayed(Date.now() + waitMs, token);
      throw new DelayedError();
    }
  }
  const { watchdogLeadMs: _fixed, ...request } = payload;
  const log = deps.log.child({ job: job.id });
  return runWithPriority(() => answerUnfinished({ ...deps, log }, request, { answerNow: fixed }));
}
