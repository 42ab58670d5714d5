import cron from 'node-cron';
import { OBJECT_KINDS } from '../sync/objects/index.ts';
import type { ScheduleSeen } from './worker-heartbeat.ts';

/** The next time a cron expression fires after now, in `timezone`; null when it cannot be read. */
export function nextRun(expression: string, timezone?: string): Date | null {
  let task: ReturnType<typeof cron.createTask> | undefined;
  try {
    task = cron.createTask(expression, () => undefined, timezone ? { timezone } : {});
    return task.getNextRuns(1)[0] ?? null;
  } catch {
    return null;
  } finally {
    void Promise.resolve(task?.destroy()).catch(() => undefined);
  }
}

/**
 * When each kind next runs on the schedules a worker runs (jobs/schedules.ts): object kinds on
 * the sooner of the weekday and weekend expressions, `coa` (the chart mirror) on its own.
 */
export function nextScheduledRuns(schedules: ScheduleSeen): Map<string, Date | null> {
  const { timezone } = schedules;
  const weekdays = nextRun(schedules.objectSyncWeekdays, timezone);
  const weekends = nextRun(schedules.objectSyncWeekends, timezone);
  const objects = [weekdays, weekends]
    .filter((d): d is Date => d !== null)
    .sort((a, b) => a.getTime() - b.getTime())[0];
  const runs = new Map<string, Date | null>(OBJECT_KINDS.map((kind) => [kind, objects ?? null]));
  runs.set('coa', nextRun(schedules.coaMirror, timezone));
  return runs;
}
