import { type JobsOptions, Queue, type WorkerOptions } from 'bullmq';
import { type RedisWatch, reconnectSoon, redisWatch } from '../infra/index.ts';
import { QUEUE_NAMES } from './payloads.ts';

export interface QueueConnection {
  redisUrl: string;
  /** BullMQ key prefix (QUEUE_PREFIX): tests isolate themselves with a unique one. */
  prefix: string;
}

export type QueueKey = keyof typeof QUEUE_NAMES;

export interface Queues {
  objectSync: Queue;
  syncButton: Queue;
  coaMirror: Queue;
  syncWatchdog: Queue;
  migration: Queue;
  /** Whether their Redis is known to be down (one line per outage is logged there). */
  redis?: RedisWatch;
  all(): Queue[];
  close(): Promise<void>;
}

/**
 * Finished jobs stay for a day: a scheduled job's id blocks a late replica from adding the same
 * window again only while the job exists, and an operator can read what ran. Failed jobs keep
 * their error (failedReason, stack trace) for a week.
 */
const KEEP = { removeOnComplete: { age: 86_400, count: 10_000 }, removeOnFail: { age: 7 * 86_400 } };

/** Per queue: retries back off exponentially; the sync is idempotent, so a retry is safe. */
export const JOB_OPTIONS: Record<QueueKey, JobsOptions> = {
  objectSync: { ...KEEP, attempts: 3, backoff: { type: 'exponential', delay: 30_000 } },
  coaMirror: { ...KEEP, attempts: 3, backoff: { type: 'exponential', delay: 60_000 } },
  // The button window is 5 minutes (docs/platform.md G29): retries must come quickly or not at all.
  syncButton: { ...KEEP, attempts: 4, backoff: { type: 'exponential', delay: 2_000 } },
  syncWatchdog: { ...KEEP, attempts: 5, backoff: { type: 'exponential', delay: 1_000 } },
  // A step that fails for a passing reason (the platform, a busy lock) is resumed from its state.
  migration: { ...KEEP, attempts: 5, backoff: { type: 'exponential', delay: 30_000 } },
};

/**
 * Lock and stalled-job settings per queue. A job whose worker died (kill -9) is found stalled
 * once its lock lapses (lockDuration, renewed every half of it) and a stalled check has seen it
 * twice (stalledInterval): BullMQ's 30 s and 30 s made webhook-triggered syncs wait about a
 * minute after a crash, because new events fold into the dead job (enqueue.ts). The sync queues
 * use 10 s and 5 s, so a dead job runs again within about 20 s; a live worker renews its locks
 * every 5 s, which leaves room for a busy event loop.
 */
export const WORKER_TUNING: Record<
  QueueKey,
  Pick<WorkerOptions, 'lockDuration' | 'stalledInterval' | 'maxStalledCount'>
> = {
  objectSync: { lockDuration: 10_000, stalledInterval: 5_000 },
  syncButton: { lockDuration: 10_000, stalledInterval: 5_000 },
  coaMirror: { lockDuration: 10_000, stalledInterval: 5_000 },
  syncWatchdog: {},
  // A killed worker's prepare resumes within about 20 s on another (or the restarted) worker, and
  // may be resumed that way several times: each run goes on from the state Postgres records.
  migration: { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 5 },
};

/**
 * Connection options of BullMQ workers: their blocking commands must not give up
 * (`maxRetriesPerRequest: null`, which BullMQ requires), and they reconnect at most 2 s after
 * Redis is back (BullMQ's own default backs off to 20 s).
 */
export function bullConnection(redisUrl: string) {
  return { url: redisUrl, maxRetriesPerRequest: null, retryStrategy: reconnectSoon };
}

/**
 * Connection options of the queues jobs are added through (webhooks, schedules, follow-ups):
 * while Redis is unreachable an add fails at once instead of waiting in ioredis's offline
 * queue, so the webhook route answers 5xx and the platform redelivers (docs/platform.md F21).
 */
export function producerConnection(redisUrl: string) {
  return {
    url: redisUrl,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: reconnectSoon,
  };
}

export function createQueues(connection: QueueConnection): Queues {
  const watch = redisWatch(connection.redisUrl);
  const make = (key: QueueKey) => {
    const queue = new Queue(QUEUE_NAMES[key], {
      connection: producerConnection(connection.redisUrl),
      prefix: connection.prefix,
      defaultJobOptions: JOB_OPTIONS[key],
    });
    // One line per outage, not a stack per reconnect attempt (src/infra/redis-connection.ts).
    queue.on('error', (error) => watch.error(error, { queue: QUEUE_NAMES[key] }, 'queue error'));
    return queue;
  };
  const queues = {
    objectSync: make('objectSync'),
    syncButton: make('syncButton'),
    coaMirror: make('coaMirror'),
    syncWatchdog: make('syncWatchdog'),
    migration: make('migration'),
  };
  const all = () => Object.values(queues);
  return {
    ...queues,
    redis: watch,
    all,
    /**
     * With Redis unreachable a queue cannot close cleanly (its producer connection refuses the
     * QUIT): it is disconnected instead, without waiting, since BullMQ's disconnect then never
     * resolves.
     */
    async close() {
      await Promise.all(
        all().map((q) =>
          q.close().catch(() => {
            void Promise.resolve(q.disconnect()).catch(() => undefined);
          }),
        ),
      );
    },
  };
}
