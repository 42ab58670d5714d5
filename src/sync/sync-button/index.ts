// The sync button (docs/platform.md G28, G29): a press's rows read, written and answered within its
// window, the watchdog that answers what a run could not, and the presses Redis lost. Code outside
// this folder imports it through this file.
export { answerUnfinished, type WatchdogResult } from './answer-unfinished.ts';
export { databaseTime } from './attribute-rows.ts';
export { OVERDUE_GRACE_MS, planRecovery } from './lost-presses.ts';
export {
  carryOverOpenRequests,
  closeSyncRequest,
  expireOverdueRequests,
  getSyncRequest,
  moveOpenRequest,
  type OpenRequest,
  openRequestsInWindow,
  recentAnsweredRequests,
  recordSyncRequest,
  requestLatencyBuckets,
  requestStats,
} from './requests.ts';
export { runSyncButton, type SyncButtonOutcome } from './run-sync-button.ts';
export { leadBounds } from './watchdog-lead.ts';
export { watchdogWaitMs } from './watchdog-schedule.ts';
export { BUTTON_OBJECTS, deadlineOf, SYNC_WINDOW_MS } from './window.ts';
