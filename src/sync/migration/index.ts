/**
 * The migration runner: moving a customer onto a new, inactive accounting connection (docs/platform.md
 * G31 and G30, F6, F7).
 */
export { type AbandonResult, abandonOpenMigration } from './abandon.ts';
export { DEFAULT_BACKUP_DIR, readBackupFile } from './backup-file.ts';
export { type Blocker, type BlockerCode, describeBlocker, F7_PRECONDITIONS } from './blockers.ts';
export { prepareMigration } from './prepare.ts';
export { MIGRATION_STATES, type MigrationState, STEPS, type StepName } from './states.ts';
export { type MigrationStatus, migrationStatus } from './status.ts';
export type {
  MigrationDeps,
  PrepareOptions,
  PrepareOutcome,
  PrepareResult,
  StepEvent,
} from './types.ts';
