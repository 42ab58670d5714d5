import { type JobsOptions, Queue } from 'bullmq';
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
};

/** BullMQ connection options: blocking commands must not give up (maxRetriesPerRequest: null). */
export function bullConnection(redisUrl: string) {
  return { url: redisUrl, maxRetriesPerRequest: null };
}

export function createQueues(connection: QueueConnection): Queues {
  const make = (key: QueueKey) =>
    new Queue(QUEUE_NAMES[key], {
      connection: bullConnection(connection.redisUrl),
      prefix: connection.prefix,
      defaultJobOptions: JOB_OPTIONS[key],
    });
  const queues = {
    objectSync: make('objectSync'),
    syncButton: make('syncButton'),
    coaMirror: make('coaMirror'),
    syncWatchdog: make('syncWatchdog'),
  };
  const all = () => Object.values(queues);
  return {
    ...queues,
    all,
    async close() {
      await Promise.all(all().map((q) => q.close()));
    },
  };
}
