import type { JobState } from 'bullmq';

/**
 * A sync-button press lives in two places: its row in `sync_requests` (PostgreSQL, committed
 * before the webhook is answered) and its run and watchdog jobs (Redis). A Redis that restarts
 * without persistence, or evicts the keys, loses the jobs while the row stays OPEN: nothing
 * would answer the press, and its rows would expire on the platform (docs/platform.md G29).
 * This decides, from the row and what Redis holds, what puts such a press back on track.
 */

/**
 * What Redis says of one of the press's jobs (BullMQ getJobState). `unknown` is a job Redis does
 * not hold: lost. A completed or failed job is kept for a day (src/queue/queues.ts), so it had its
 * turn and is not lost; one waiting, delayed or active is on its way.
 */
export type JobPresence = JobState | 'unknown';

/**
 * A run needs at least this long before the watchdog takes over (it answers at the watchdog's
 * lead before the deadline): one read of the requested rows and a page written and posted. With
 * less, the run would only race the watchdog for the same rows, so the watchdog answers alone.
 */
export const MIN_RUN_ROOM_MS = 10_000;

/**
 * An OPEN press whose deadline passed this long ago is closed as EXPIRED. The margin leaves a
 * watchdog that finished its posts just before the deadline the time to record its answer.
 */
export const OVERDUE_GRACE_MS = 60_000;

export interface PressRecovery {
  /** Which of the press's jobs Redis had lost. */
  lost: Array<'run' | 'watchdog'>;
  /** Enqueue the run again (there is room for it before the watchdog). */
  run: boolean;
  /** Enqueue the watchdog again with this delay (0: answer the rows now); null leaves it be. */
  watchdogDelayMs: number | null;
}

/**
 * What to enqueue again for an OPEN press with `leftMs` of its window left (by the database's
 * clock), or null when Redis holds both of its jobs. The job ids are the press's, so enqueuing
 * again next to a job that is there after all adds nothing.
 */
export function planRecovery(press: {
  leftMs: number;
  watchdogLeadMs: number;
  run: JobPresence;
  watchdog: JobPresence;
  /** When the watchdog runs for a press with `leftMs` left, had it been pressed now (src/queue/enqueue.ts). */
  watchdogDelay: (leftMs: number) => number;
}): PressRecovery | null {
  const lost: PressRecovery['lost'] = [];
  if (press.run === 'unknown') lost.push('run');
  if (press.watchdog === 'unknown') lost.push('watchdog');
  if (lost.length === 0) return null;
  const roomForRun = press.leftMs - press.watchdogLeadMs >= MIN_RUN_ROOM_MS;
  const run = press.run === 'unknown' && roomForRun;
  let watchdogDelayMs: number | null = null;
  if (press.watchdog === 'unknown') watchdogDelayMs = roomForRun ? press.watchdogDelay(press.leftMs) : 0;
  return { lost, run, watchdogDelayMs };
}
