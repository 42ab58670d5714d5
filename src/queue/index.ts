/**
 * The queues and what adds jobs to them (the producer side of BullMQ): queue names and options,
 * job payloads, job ids, and the enqueue helpers. The server, the commands and the processors in
 * `jobs/` all add jobs through here; nothing here runs a job.
 */
export {
  ENQUEUE_DEADLINE_MS,
  EnqueueError,
  enqueueCoalescedMirror,
  enqueueCoalescedSync,
  enqueueScheduledMirror,
  enqueueScheduledSync,
  enqueueSyncButton,
  enqueueWithin,
  watchdogDelay,
} from './enqueue.ts';
export type { JobAttemptEvent } from './job-attempt.ts';
export { coalesceId, scheduledJobId, syncButtonJobId, watchdogJobId, windowStart } from './job-ids.ts';
export { enqueueMigration, latestMigrationJob } from './migration-jobs.ts';
export {
  CoaMirrorPayload,
  InvalidPayloadError,
  MIGRATION_QUEUE,
  MigrationPayload,
  parsePayload,
  QUEUE_NAMES,
  SyncButtonPayload,
  SyncObjectsPayload,
} from './payloads.ts';
export {
  bullConnection,
  createQueues,
  JOB_OPTIONS,
  producerConnection,
  type QueueConnection,
  type QueueKey,
  type Queues,
  WORKER_TUNING,
} from './queues.ts';
