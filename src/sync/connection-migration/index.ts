/**
 * The migration runner: moving a customer onto a new, inactive accounting connection (docs/platform.md
 * G31 and G30, F6, F7), following the switch once the customer makes it, and restoring a backed-up
 * chart.
 */
export { abandonOpenMigration } from './abandon.ts';
export { DEFAULT_BACKUP_DIR, readBackupFile } from './backup-file.ts';
export { describeBlocker } from './blockers.ts';
export { prepareMigration } from './prepare.ts';
export { type MigrationJobView, type MigrationProgress, migrationProgress } from './progress.ts';
export { prepareText, progressLines, restoreText, statusText, stepLine } from './report-text.ts';
export { RestoreInputError, type RestoreResult, restoreChart } from './restore.ts';
export { STEPS, type StepName } from './states.ts';
export { migrationStatus } from './status.ts';
export { connectionAfterSwitches, rehomeSyncRequest } from './store.ts';
export { ConnectionSwitchPendingError, followSwitch } from './switch.ts';
export type { PrepareOutcome, PrepareResult } from './types.ts';
