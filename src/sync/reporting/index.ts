// Reporting: known outcomes go to the platform as result batches, exactly once. Freezing a batch
// (result_batches and the sync ledger's batch columns, in one transaction), sending it under a
// lease, in sync-type order (docs/platform.md G23), and recording the platform's answer.
export { ackBatch } from './ack-batch.ts';
export { backlogBySteps } from './backlog-history.ts';
export { BatchStillLeasedError } from './batch-lease.ts';
export { carryOverFrozenBatches } from './carry-over.ts';
export { freezeBatch, type SyncBody } from './freeze-batch.ts';
export { frozenBatches, frozenCountsBySyncType } from './frozen-batches.ts';
export { OutboxIdempotencyRecords } from './idempotency-records.ts';
export type { PostOutcome } from './post-outcome.ts';
export {
  addReport,
  freezeAndSend,
  type ReportContext,
  type ReportCounts,
  sendFrozen,
  sendLeftBatches,
} from './report-results.ts';
