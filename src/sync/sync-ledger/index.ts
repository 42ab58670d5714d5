// The sync ledger: one row per object and sync type, every statement over it (claims, outcomes,
// lookups, counts). Its batch columns are reporting's (src/sync/reporting). Code outside this folder
// imports it through this file.
export { settleAnsweredRows, unansweredRowsOfEndedRuns } from './answered-rows.ts';
export { carryOverUnreportedRows } from './carry-over.ts';
export { claimRows } from './claims.ts';
export { inDoubtForMs } from './in-doubt.ts';
export {
  lastFailureMessages,
  latestOutcome,
  ledgerSyncType,
  outcomesInOutbox,
  reportedByUs,
} from './object-lookups.ts';
export {
  adoptKnownOutcomes,
  type Outcome,
  recordOutcomes,
  releaseClosedRequests,
  releaseLeftovers,
} from './outcomes.ts';
export {
  failureMessagesByFrequency,
  outcomeCounts,
  recentActionableFailures,
  reportedTotalsBySyncType,
  topFailureReasons,
  unbatchedBySyncType,
  unsentResultCounts,
} from './summaries.ts';
