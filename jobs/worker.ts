import { type Job, Worker, type WorkerOptions } from 'bullmq';
import type { AppContext } from '../src/app/index.ts';
import { redisWatch } from '../src/infra/index.ts';
import {
  bullConnection,
  type JobAttemptEvent,
  QUEUE_NAMES,
  type QueueConnection,
  type QueueKey,
  type Queues,
  WORKER_TUNING,
} from '../src/queue/index.ts';
import { OBJECT_KINDS } from '../src/sync/objects/index.ts';
import { followConnectionSwitch, processMigration } from './connection-migration.ts';
import { finishedJobFields } from './finished-job.ts';
import { type RunningJoiner, startJoining } from './join-runs.ts';
import { startPressRecovery } from './recover-presses.ts';
import { runCoaMirrorJob, runObjectSyncJob } from './run-sync-jobs.ts';
import { processSyncButton } from './sync-button.ts';
import { processSyncWatchdog } from './watchdog.ts';

export interface WorkerSettings {
  connection: QueueConnection;
  /** Where follow-up jobs go. */
  queues: Queues;
  /** Jobs run at once per queue in this process. */
  concurrency?: Partial<Record<QueueKey, number>>;
  /** Delay of the follow-up a webhook-triggered job leaves when its kind is already running. */
  busyRetryMs?: number;
  /** Which queues this process works (default: all). */
  queuesToWork?: QueueKey[];
  /** BullMQ lock and stalled-job settings (lockDuration, stalledInterval, maxStalledCount). */
  tuning?: Pick<WorkerOptions, 'lockDuration' | 'stalledInterval' | 'maxStalledCount'>;
  /** Join bulk syncs other processes started (default true; jobs/join-runs.ts). */
  joinRuns?: boolean;
  /** Told when a job attempt ends (metrics); must not throw or block. */
  observe?: (event: JobAttemptEvent) => void;
  /**
   * Sync-button presses whose jobs Redis lost are enqueued again, at start and every `everyMs`
   * (jobs/recover-presses.ts); `watchdogLeadMs` is the webhook receiver's (default 30 s).
   */
  recoverPresses?: { everyMs?: number; watchdogLeadMs?: number };
}

export interface RunningWorkers {
  workers: Worker[];
  /**
   * Stops taking jobs and waits up to `timeoutMs` for those in flight; what is still running
   * then is released (its lock lapses, BullMQ recovers it as stalled, and the sync is safe to
   * repeat).
   */
  close(timeoutMs?: number): Promise<void>;
}

/** Every kind at once: different kinds run side by side, one per kind (the advisory lock). */
const CONCURRENCY: Record<QueueKey, number> = {
  objectSync: OBJECT_KINDS.length,
  syncButton: 2,
  coaMirror: 1,
  syncWatchdog: 4,
  // One prepare at a time anyway (its advisory lock); a second would only wait for the first.
  migration: 1,
};

/** A follow-up tries the kind's lock every 15 s while another run of the kind lasts. */
export const DEFAULT_BUSY_RETRY_MS = 15_000;
/** Kubernetes waits 30 s between SIGTERM and SIGKILL by default: 5 s are left to close connections. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 25_000;

function processorFor(
  key: QueueKey,
  app: AppContext,
  settings: WorkerSettings,
  joiner: RunningJoiner | null,
) {
  const busyRetryMs = settings.busyRetryMs ?? DEFAULT_BUSY_RETRY_MS;
  // A job addressed to a connection the customer switched away from runs for the new one.
  const follow = (job: Job) => followConnectionSwitch(job, app);
  switch (key) {
    case 'objectSync':
      return async (job: Job) => runObjectSyncJob(await follow(job), app, settings.queues, { busyRetryMs });
    case 'coaMirror':
      return async (job: Job) => runCoaMirrorJob(await follow(job), app);
    case 'syncButton':
      // A press goes first in this process's CPU too: joined shares of bulk syncs stop while it runs.
      return async (job: Job) => {
        const release = joiner?.hold();
        try {
          return await processSyncButton(await follow(job), app);
        } finally {
          release?.();
        }
      };
    case 'syncWatchdog':
      return async (job: Job, token?: string) => processSyncWatchdog(await follow(job), app, token);
    case 'migration':
      return (job: Job) => processMigration(job, app);
  }
}

const durationOf = (job: Job) =>
  job.processedOn ? Math.max(0, (job.finishedOn ?? Date.now()) - job.processedOn) : null;

/**
 * Logs each completed job (one line: queue, kind, counts and duration in ms, as numbers; a failed
 * attempt has its own line) and reports each finished attempt to the observer, whose failure is
 * only logged.
 */
function observeAttempts(worker: Worker, key: QueueKey, app: AppContext, settings: WorkerSettings): void {
  const observe = settings.observe;
  const notify = (event: JobAttemptEvent) => {
    if (!observe) return;
    try {
      observe(event);
    } catch (error) {
      app.log.warn({ queue: QUEUE_NAMES[key], err: error }, 'job observer failed');
    }
  };
  worker.on('completed', (job, result) => {
    const durationMs = durationOf(job);
    app.log.info(finishedJobFields(QUEUE_NAMES[key], job, durationMs, result), 'job finished');
    notify({ queue: key, status: 'completed', durationMs, result });
  });
  worker.on('failed', (job) => {
    if (job) notify({ queue: key, status: 'failed', durationMs: durationOf(job) });
  });
}

/** Time BullMQ gets to record the jobs that just ended and quit its connections. */
const CLOSE_GRACE_MS = 5_000;

/** Whether `work` settled within `ms` (it keeps running either way). */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const done = work.then(
    () => true,
    () => true,
  );
  return Promise.race([done, late]).finally(() => clearTimeout(timer));
}

/**
 * Stops taking jobs, waits up to `timeoutMs` for the jobs this process is running, then closes.
 * The wait is on the jobs themselves, not on BullMQ's fetch loop, which waits for Redis while it
 * is down: with nothing running the worker closes at once, and with Redis down it does not wait
 * for Redis to say goodbye.
 */
async function closeWorker(
  worker: Worker,
  running: Set<Promise<unknown>>,
  timeoutMs: number,
  context: { app: AppContext; redisDown: () => boolean },
): Promise<void> {
  const { app } = context;
  await worker.pause(true).catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), timeoutMs);
  });
  const finished = Promise.allSettled([...running]).then(() => false);
  const released = running.size > 0 && (await Promise.race([finished, timedOut]));
  clearTimeout(timer);
  if (released) app.log.warn({ queue: worker.name }, 'jobs still running at shutdown were released');
  // A graceful close lets BullMQ record a job that has just ended; forced, it only disconnects.
  const force = released || context.redisDown();
  if (!(await settledWithin(worker.close(force), force ? 1_000 : CLOSE_GRACE_MS))) {
    app.log.debug({ queue: worker.name }, 'worker did not close in time; disconnecting');
    void Promise.resolve(worker.disconnect()).catch(() => undefined);
  }
}

/** The jobs a processor is running, so a shutdown knows whether there is anything to wait for. */
function tracked<T>(running: Set<Promise<unknown>>, work: Promise<T>): Promise<T> {
  running.add(work);
  const forget = () => running.delete(work);
  work.then(forget, forget);
  return work;
}

export function startWorkers(app: AppContext, settings: WorkerSettings): RunningWorkers {
  const keys = settings.queuesToWork ?? (Object.keys(QUEUE_NAMES) as QueueKey[]);
  const watch = redisWatch(settings.connection.redisUrl, app.log);
  const running = new Map<Worker, Set<Promise<unknown>>>();
  // A process that works object syncs also joins bulk syncs other processes started (scale-out).
  const joiner = keys.includes('objectSync') && settings.joinRuns !== false ? startJoining(app) : null;
  const workers = keys.map((key) => {
    const jobs = new Set<Promise<unknown>>();
    const processJob = processorFor(key, app, settings, joiner);
    // The lock token goes on to the processor: the watchdog needs it to wait again (moveToDelayed).
    const worker = new Worker(
      QUEUE_NAMES[key],
      (job: Job, token?: string) => tracked<unknown>(jobs, processJob(job, token)),
      {
        connection: bullConnection(settings.connection.redisUrl),
        prefix: settings.connection.prefix,
        concurrency: settings.concurrency?.[key] ?? CONCURRENCY[key],
        ...WORKER_TUNING[key],
        ...settings.tuning,
      },
    );
    worker.on('failed', (job, error) =>
      app.log.warn(
        {
          ...(job ? finishedJobFields(QUEUE_NAMES[key], job, durationOf(job)) : { queue: QUEUE_NAMES[key] }),
          attempts: job?.attemptsMade,
          err: error,
        },
        'job failed',
      ),
    );
    // Without a listener an 'error' event would throw. BullMQ reconnects by itself: a Redis outage
    // is one line (and one when it ends), not a stack per attempt; other errors are logged.
    worker.on('error', (error) => watch.error(error, { queue: QUEUE_NAMES[key] }, 'worker error'));
    observeAttempts(worker, key, app, settings);
    running.set(worker, jobs);
    return worker;
  });
  const recovery = startPressRecovery(
    {
      sql: app.sql,
      queues: settings.queues,
      log: app.log,
      redisDown: () => settings.queues.redis?.isDown ?? false,
      watchdogLeadMs: settings.recoverPresses?.watchdogLeadMs,
    },
    settings.recoverPresses?.everyMs,
  );
  return {
    workers,
    async close(timeoutMs = DEFAULT_CLOSE_TIMEOUT_MS) {
      await recovery.stop();
      await joiner?.stop();
      const context = { app, redisDown: () => watch.isDown };
      await Promise.all(workers.map((w) => closeWorker(w, running.get(w)!, timeoutMs, context)));
    },
  };
}
