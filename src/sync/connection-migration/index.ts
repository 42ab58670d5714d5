/**
 * The migration runner: moving a customer onto a new, inactive accounting connection (docs/platform.md
 * G31 and G30, F6, F7), following the switch once the customer makes it, and restoring a backed-up
 * chart.
 */
export { type AbandonResult, abandonOpenMigration } from './abandon.ts';
export { DEFAULT_BACKUP_DIR, readBackupFile } from './backup-file.ts';
export { type Blocker, type BlockerCode, describeBlocker, F7_PRECONDITIONS } from './blockers.ts';
export { prepareMigration } from './prepare.ts';
export { type MigrationJobView, type MigrationProgress, migrationProgress } from './progress.ts';
export {
  type RestoreFrom,
  RestoreInputError,
  type RestoreOptions,
  type RestoreResult,
  restoreChart,
} from './restore.ts';
export { MIGRATION_STATES, type MigrationState, STEPS, type StepName } from './states.ts';
export { type MigrationStatus, migrationStatus } from './status.ts';
export {
  ConnectionSwitchPendingError,
  completeSwitch,
  followSwitch,
  type SwitchDeps,
  type SwitchOutcome,
} from './switch.ts';
export type {
  MigrationDeps,
  PrepareOptions,
  PrepareOutcome,
  PrepareResult,
  StepEvent,
} from './types.ts';
