import { type Job, Worker, type WorkerOptions } from 'bullmq';
import type { AppContext } from '../src/app/app-context.ts';
import { redisWatch } from '../src/infra/redis-connection.ts';
import { OBJECT_KINDS } from '../src/sync/objects/kinds.ts';
import { QUEUE_NAMES } from './payloads.ts';
import { bullConnection, type QueueConnection, type QueueKey, type Queues, WORKER_TUNING } from './queues.ts';
import { runCoaMirrorJob, runObjectSyncJob } from './run-object-sync.ts';
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
  /** Told when a job attempt ends (metrics); must not throw or block. */
  observe?: (event: JobAttemptEvent) => void;
}

/** One finished job attempt: a failed one may still be retried. */
export interface JobAttemptEvent {
  queue: QueueKey;
  status: 'completed' | 'failed';
  /** From the moment the attempt started to its end; null when BullMQ did not say. */
  durationMs: number | null;
  /** What the processor returned (completed attempts only). */
  result?: unknown;
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
};

/** A follow-up tries the kind's lock every 15 s while another run of the kind lasts. */
export const DEFAULT_BUSY_RETRY_MS = 15_000;
/** Kubernetes waits 30 s between SIGTERM and SIGKILL by default: 5 s are left to close connections. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 25_000;

function processorFor(key: QueueKey, app: AppContext, settings: WorkerSettings) {
  const busyRetryMs = settings.busyRetryMs ?? DEFAULT_BUSY_RETRY_MS;
  switch (key) {
    case 'objectSync':
      return (job: Job) => runObjectSyncJob(job, app, settings.queues, { busyRetryMs });
    case 'coaMirror':
      return (job: Job) => runCoaMirrorJob(job, app);
    case 'syncButton':
      return (job: Job) => processSyncButton(job, app);
    case 'syncWatchdog':
      return (job: Job) => processSyncWatchdog(job, app);
  }
}

/** Reports each finished attempt to the observer; an observer's failure is only logged. */
function observeAttempts(worker: Worker, key: QueueKey, app: AppContext, settings: WorkerSettings): void {
  const observe = settings.observe;
  if (!observe) return;
  const durationOf = (job: Job) =>
    job.processedOn ? Math.max(0, (job.finishedOn ?? Date.now()) - job.processedOn) : null;
  const notify = (event: JobAttemptEvent) => {
    try {
      observe(event);
    } catch (error) {
      app.log.warn({ queue: QUEUE_NAMES[key], err: error }, 'job observer failed');
    }
  };
  worker.on('completed', (job, result) =>
    notify({ queue: key, status: 'completed', durationMs: durationOf(job), result }),
  );
  worker.on('failed', (job) => {
    if (job) notify({ queue: key, status: 'failed', durationMs: durationOf(job) });
  });
}

async function closeWorker(worker: Worker, timeoutMs: number, app: AppContext): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), timeoutMs);
  });
  const released = await Promise.race([worker.pause(false).then(() => false), timedOut]);
  clearTimeout(timer);
  if (released) app.log.warn({ queue: worker.name }, 'jobs still running at shutdown were released');
  await worker.close(released);
}

export function startWorkers(app: AppContext, settings: WorkerSettings): RunningWorkers {
  const keys = settings.queuesToWork ?? (Object.keys(QUEUE_NAMES) as QueueKey[]);
  const watch = redisWatch(settings.connection.redisUrl, app.log);
  const workers = keys.map((key) => {
    const worker = new Worker(QUEUE_NAMES[key], processorFor(key, app, settings), {
      connection: bullConnection(settings.connection.redisUrl),
      prefix: settings.connection.prefix,
      concurrency: settings.concurrency?.[key] ?? CONCURRENCY[key],
      ...WORKER_TUNING[key],
      ...settings.tuning,
    });
    worker.on('failed', (job, error) =>
      app.log.warn(
        { queue: QUEUE_NAMES[key], job: job?.id, attempts: job?.attemptsMade, err: error },
        'job failed',
      ),
    );
    // Without a listener an 'error' event would throw. BullMQ reconnects by itself: a Redis outage
    // is one line (and one when it ends), not a stack per attempt; other errors are logged.
    worker.on('error', (error) => watch.error(error, { queue: QUEUE_NAMES[key] }, 'worker error'));
    observeAttempts(worker, key, app, settings);
    return worker;
  });
  return {
    workers,
    async close(timeoutMs = DEFAULT_CLOSE_TIMEOUT_MS) {
      await Promise.all(workers.map((w) => closeWorker(w, timeoutMs, app)));
    },
  };
}
