import { DelayedError, type Job } from 'bullmq';
import type { AppContext } from '../src/app/index.ts';
import { runWithPriority } from '../src/platform/index.ts';
import { QUEUE_NAMES, SyncButtonPayload } from '../src/queue/index.ts';
import {
  answerUnfinished,
  getSyncRequest,
  latencySeen,
  nextWatchdogWake,
  type WatchdogResult,
} from '../src/sync/sync-button/index.ts';
import { parseJobData } from './parse-job.ts';

export type WatchdogDeps = Pick<AppContext, 'sql' | 'syncPlatform' | 'log'>;

/**
 * Thin processor: the delayed job enqueued with every sync-button press (src/queue/enqueue.ts). It
 * first wakes at the earliest moment a watchdog may start (two fifths of the window after the
 * press, src/sync/sync-button/watchdog-lead.ts), and from then on decides from the platform
 * latency recorded so far, the press's own run's reads included: start now, or wait again (at
 * most a tenth of the window, so a platform that slows down meanwhile is seen in time). A delay
 * set once at the press could not be brought forward when the latency grew. A lead fixed by the
 * receiver's configuration (`watchdogLeadMs` in the payload) is kept as it is.
 * Its read and posts race the customer's deadline, so they take the limiter's priority lane too.
 */
export async function processSyncWatchdog(
  job: Job,
  deps: WatchdogDeps,
  token?: string,
): Promise<WatchdogResult> {
  const payload = parseJobData(SyncButtonPayload, job.data, QUEUE_NAMES.syncWatchdog);
  if (payload.watchdogLeadMs === undefined && token !== undefined) {
    const wake = await nextWake(deps, payload);
    if (wake !== null) {
      await job.moveToDelayed(wake, token);
      throw new DelayedError();
    }
  }
  const { watchdogLeadMs: _fixed, ...request } = payload;
  return runWithPriority(() => answerUnfinished({ ...deps, log: deps.log.child({ job: job.id }) }, request));
}

/** When to look again, or null to answer now (a request no longer open is looked at at once). */
async function nextWake(deps: WatchdogDeps, payload: SyncButtonPayload): Promise<number | null> {
  const request = await getSyncRequest(deps.sql, payload.syncRequestId);
  if (request?.state !== 'OPEN') return null;
  return nextWatchdogWake(request, await latencySeen(deps.sql, payload.connectionId), Date.now());
}
