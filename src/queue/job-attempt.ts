import type { QueueKey } from './queues.ts';

/**
 * One finished job attempt, as the worker tells its observer (metrics); a failed one may still be
 * retried. It lives beside the queues so that what observes jobs needs nothing of the processors.
 */
export interface JobAttemptEvent {
  queue: QueueKey;
  status: 'completed' | 'failed';
  /** From the moment the attempt started to its end; null when BullMQ did not say. */
  durationMs: number | null;
  /** What the processor returned (completed attempts only). */
  result?: unknown;
}
