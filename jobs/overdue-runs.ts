import type { Sql } from 'postgres';
import type { Logger } from '../src/log.ts';
import { lastGoodRuns, spanOf } from '../src/operations/index.ts';
import { enqueueScheduledMirror, enqueueScheduledSync, type Queues } from '../src/queue/index.ts';
import { OBJECT_KINDS, type ObjectKindName } from '../src/sync/objects/index.ts';
import { type Cadence, cadenceOf } from './schedule-cadence.ts';
import type { ScheduleSettings } from './schedules.ts';

/** A kind (`coa`: the chart mirror) whose run is due now rather than at its next window. */
export interface OverdueRun {
  kind: 'coa' | ObjectKindName;
  /** The schedule window it stands in for: its job id is that window's (src/queue/job-ids.ts). */
  window: Date;
  /** Why, in words: "last good run 3 h ago, schedule every 2 h". */
  reason: string;
}

/**
 * Whether a kind is overdue: it never ran well, or its last good run is older than the gap its
 * schedule leaves between runs (the same "last good run" `status` shows, src/operations/health.ts).
 * The run stands in for the schedule's latest window; a schedule that had none within the last
 * 8 days (a yearly one, often set to keep the schedule quiet) has nothing overdue.
 */
export function overdueRun(
  kind: OverdueRun['kind'],
  lastGoodAt: Date | undefined,
  cadence: Cadence,
  now: number,
): OverdueRun | null {
  const { lastWindow: window, periodMs } = cadence;
  if (window === null || periodMs === null) return null;
  const every = `schedule every ${spanOf(periodMs / 1000)}`;
  if (!lastGoodAt) return { kind, window, reason: `no good run yet, ${every}` };
  const ageMs = now - lastGoodAt.getTime();
  if (ageMs <= periodMs) return null;
  return { kind, window, reason: `last good run ${spanOf(ageMs / 1000)} ago, ${every}` };
}

export interface OverdueDeps {
  sql: Sql;
  queues: Pick<Queues, 'objectSync' | 'coaMirror'>;
  connectionId: string;
  settings: ScheduleSettings;
  log: Logger;
  /** Object kinds the schedules run (default: all). */
  kinds?: readonly ObjectKindName[];
  now?: number;
}

/**
 * What a worker that starts with its schedules enqueues at once, instead of leaving it to the
 * next window (up to 12 h away at weekends): every kind that is overdue, the chart mirror first
 * (as `sync all` runs it; the mirror and the object syncs have queues of their own). Each job is
 * the missed window's own cron job (src/queue/enqueue.ts), so workers starting together, or a cron
 * tick of that window, add it once between them.
 */
export async function enqueueOverdueRuns(deps: OverdueDeps): Promise<OverdueRun[]> {
  const now = deps.now ?? Date.now();
  const { settings } = deps;
  const good = new Map(
    (await lastGoodRuns(deps.sql, deps.connectionId)).map((r) => [r.kind, new Date(r.finishedAt)]),
  );
  const objects = cadenceOf(
    [settings.objectSyncWeekdays, settings.objectSyncWeekends],
    settings.timezone,
    now,
  );
  const mirror = cadenceOf([settings.coaMirror], settings.timezone, now);
  const due = [
    overdueRun('coa', good.get('coa'), mirror, now),
    ...(deps.kinds ?? OBJECT_KINDS).map((kind) => overdueRun(kind, good.get(kind), objects, now)),
  ].filter((run): run is OverdueRun => run !== null);
  for (const run of due) {
    if (run.kind === 'coa') await enqueueScheduledMirror(deps.queues, deps.connectionId, run.window);
    else await enqueueScheduledSync(deps.queues, deps.connectionId, run.kind, run.window);
    deps.log.info(
      { kind: run.kind, window: run.window.toISOString() },
      `${run.kind}: ${run.reason}; enqueued at start`,
    );
  }
  return due;
}
