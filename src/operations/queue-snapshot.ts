import type { Queue } from 'bullmq';

/** The states a queue's depth is shown in, as the metric's `state` label and in `status`. */
export const QUEUE_DEPTH_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
type QueueDepthState = (typeof QUEUE_DEPTH_STATES)[number];

/** Jobs in one queue by state, as BullMQ counts them now. */
export type QueueDepth = { queue: string } & Record<QueueDepthState, number>;

/**
 * One queue's jobs by state. `waiting` counts every job ready to run (prioritized ones too);
 * `failed` counts the failed jobs BullMQ keeps (a week, src/queue/queues.ts).
 */
export async function readQueueDepth(queue: Queue): Promise<QueueDepth> {
  const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
  return {
    queue: queue.name,
    waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
    active: counts.active ?? 0,
    delayed: counts.delayed ?? 0,
    failed: counts.failed ?? 0,
  };
}

/**
 * Active jobs whose lock has lapsed: the worker that took them is gone (killed, or cut off from
 * Redis). A live worker's stalled check moves them back to waiting within seconds; while no
 * worker runs they stay. Looks at the first `limit` active jobs.
 */
export async function countStalled(queue: Queue, limit = 500): Promise<number> {
  const ids = await queue.getRanges(['active'], 0, limit - 1);
  if (ids.length === 0) return 0;
  const client = await queue.getBackend().client;
  // BullMQ keeps a job's lock at <prefix>:<queue>:<job id>:lock while a live worker holds it.
  const locks = await Promise.all(ids.map((id) => client.get(`${queue.toKey(id)}:lock`)));
  return locks.filter((lock) => lock === null).length;
}
