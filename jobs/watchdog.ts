import type { Job } from 'bullmq';
import type { AppContext } from '../src/app/app-context.ts';
import { runWithPriority } from '../src/platform/priority.ts';
import { answerUnfinished, type WatchdogResult } from '../src/sync/sync-button/answer-unfinished.ts';
import { parseJobData } from './parse-job.ts';
import { QUEUE_NAMES, SyncButtonPayload } from './payloads.ts';

export type WatchdogDeps = Pick<AppContext, 'sql' | 'syncPlatform' | 'log'>;

/**
 * How long before the deadline the watchdog answers unfinished rows: enough for one read of the
 * requested rows and one post per 5,000 of them, with retries (docs/platform.md G8: 1 s, 2 s, 4 s).
 */
export const DEFAULT_WATCHDOG_LEAD_MS = 30_000;

/**
 * Thin processor: the delayed job enqueued with every sync-button press (jobs/enqueue.ts). Its
 * read and posts race the customer's deadline, so they take the limiter's priority lane too.
 */
export async function processSyncWatchdog(job: Job, deps: WatchdogDeps): Promise<WatchdogResult> {
  const payload = parseJobData(SyncButtonPayload, job.data, QUEUE_NAMES.syncWatchdog);
  return runWithPriority(() => answerUnfinished({ ...deps, log: deps.log.child({ job: job.id }) }, payload));
}
