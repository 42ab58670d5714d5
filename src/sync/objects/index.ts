// Object sync: ready objects read from the platform (reading/ splits a backlog between cursors),
// planned against the object-kind registry (kinds.ts), written to the ERP and recorded in the sync
// ledger. Code outside this folder imports it through this file.
export { dryRunObjects } from './dry-run.ts';
export { kindFailureReason } from './kind-failure.ts';
export {
  type ButtonFlag,
  type ButtonObjectType,
  KIND_SPECS,
  kindOfSyncType,
  kindSpec,
  OBJECT_KINDS,
  type ObjectKindName,
  type PlatformObject,
  SYNC_TYPE_ORDER,
} from './kinds.ts';
export { objectSyncLockName } from './lock-name.ts';
export { planPage } from './plan-page.ts';
export { syncPlatformFrom } from './platform-adapter.ts';
export type { ReadItem, ReadPage, SyncPlatform } from './platform-port.ts';
export { prefetch } from './prefetch.ts';
export { PostgresBoard, readerName } from './reading/postgres-board.ts';
export { replayObject } from './replay.ts';
export { emptySummary, type ObjectSyncSummary, SYNC_DEFAULTS } from './run-modes/run-context.ts';
export { sideBySide } from './side-by-side.ts';
export { syncObjects } from './sync-objects.ts';
