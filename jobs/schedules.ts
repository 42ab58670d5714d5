import cron, { type ScheduledTask, type TaskContext } from 'node-cron';
import type { Config } from '../src/config.ts';
import type { Logger } from '../src/log.ts';
import {
  enqueueScheduledMirror,
  enqueueScheduledSync,
  type Queues,
  windowStart,
} from '../src/queue/index.ts';
import { OBJECT_KINDS, type ObjectKindName } from '../src/sync/objects/index.ts';

/**
 * Cron expressions (node-cron, 5 or 6 fields). Defaults follow docs/platform.md G10 (poll every 1-4 hours on
 * weekdays, every 12 hours at weekends): object syncs every 2 hours
 * on weekdays and every 12 hours at weekends, the chart-of-accounts mirror daily.
 */
export interface ScheduleSettings {
  objectSyncWeekdays: string;
  objectSyncWeekends: string;
  coaMirror: string;
  /** IANA zone the expressions are read in (default: the process's). */
  timezone?: string;
}

export function schedulesFromConfig(
  config: Pick<
    Config,
    'SCHEDULE_OBJECT_SYNC_WEEKDAYS' | 'SCHEDULE_OBJECT_SYNC_WEEKENDS' | 'SCHEDULE_COA_MIRROR'
  >,
): ScheduleSettings {
  return {
    objectSyncWeekdays: config.SCHEDULE_OBJECT_SYNC_WEEKDAYS,
    objectSyncWeekends: config.SCHEDULE_OBJECT_SYNC_WEEKENDS,
    coaMirror: config.SCHEDULE_COA_MIRROR,
  };
}

export interface ScheduleDeps {
  settings: ScheduleSettings;
  queues: Queues;
  connectionId: string;
  log: Logger;
  /** Object kinds the object-sync schedules enqueue (default: all). */
  kinds?: readonly ObjectKindName[];
}

export interface RunningSchedules {
  tasks: ScheduledTask[];
  stop(): Promise<void>;
}

type Enqueue = (window: Date) => Promise<void>;

/**
 * Cron only enqueues. Every replica runs the same schedules; the job id names the schedule
 * window (`sync|<connection>|<kind>|<window start>`), so the replicas' ticks for one window add
 * one job between them.
 */
export function startSchedules(deps: ScheduleDeps): RunningSchedules {
  const kinds = deps.kinds ?? OBJECT_KINDS;
  const syncAll: Enqueue = async (window) => {
    for (const kind of kinds) await enqueueScheduledSync(deps.queues, deps.connectionId, kind, window);
  };
  const mirror: Enqueue = (window) => enqueueScheduledMirror(deps.queues, deps.connectionId, window);
  const plan: Array<[name: string, expression: string, enqueue: Enqueue]> = [
    ['object-sync-weekdays', deps.settings.objectSyncWeekdays, syncAll],
    ['object-sync-weekends', deps.settings.objectSyncWeekends, syncAll],
    ['coa-mirror', deps.settings.coaMirror, mirror],
  ];
  const tasks = plan.map(([name, expression, enqueue]) => schedule(name, expression, enqueue, deps));
  return {
    tasks,
    async stop() {
      for (const task of tasks) await task.destroy();
    },
  };
}

function schedule(name: string, expression: string, enqueue: Enqueue, deps: ScheduleDeps): ScheduledTask {
  const log = deps.log.child({ schedule: name });
  const task: ScheduledTask = cron.createTask(
    expression,
    async (context: TaskContext) => {
      const window = windowStart(context.date, (date) => task.match(date));
      try {
        await enqueue(window);
        log.debug({ window: window.toISOString() }, 'scheduled work enqueued');
      } catch (error) {
        // The next window enqueues again; a lost tick costs one cadence step, never a crash.
        log.error({ err: error, window: window.toISOString() }, 'could not enqueue scheduled work');
      }
    },
    { name, ...(deps.settings.timezone ? { timezone: deps.settings.timezone } : {}) },
  );
  task.start();
  return task;
}
