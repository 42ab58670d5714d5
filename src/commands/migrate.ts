import { type Command, InvalidArgumentError } from 'commander';
import {
  abandonOpenMigration,
  DEFAULT_BACKUP_DIR,
  migrationStatus,
  type PrepareOutcome,
  prepareMigration,
} from '../sync/migration/index.ts';
import { prepareText, statusText, stepLine } from '../sync/migration/report-text.ts';
import { EXIT, type Runtime, withRuntime } from './runtime.ts';
import { withApp } from './with-app.ts';

/**
 * Exit codes of `migrate prepare` (README "Exit codes"): 0 ready or nothing to change, 1 a
 * precondition is not met (the message says what to do) or an unexpected failure, 2 bad
 * arguments, 3 the preload was refused in part or does not match the ERP, 69 another prepare is
 * running, 78 the platform is not configured.
 */
export const PREPARE_EXIT: Record<PrepareOutcome, number> = {
  ready: EXIT.ok,
  unchanged: EXIT.ok,
  blocked: EXIT.failed,
  incomplete: EXIT.partial,
  busy: EXIT.unavailable,
};

function text(option: string) {
  return (value: string): string => {
    if (value.trim() === '') throw new InvalidArgumentError(`${option} must not be empty`);
    return value.trim();
  };
}

interface PrepareFlags {
  provider: string;
  target?: string;
  force?: boolean;
  skipSync?: boolean;
  backupDir: string;
  json?: boolean;
}

export function registerMigrateCommands(program: Command): void {
  const group = program
    .command('migrate')
    .description('move the customer onto a new, inactive accounting connection (docs/platform.md G30)');
  group
    .command('prepare')
    .description(
      'sync what is outstanding, back up the chart, create and preload an inactive API connection, verify it, ' +
        'mark it ready to migrate; resumable, and a no-op once done',
    )
    .requiredOption(
      '--provider <name>',
      'name of the new connection, as the customer picks it',
      text('--provider'),
    )
    .option(
      '--target <connection-id>',
      'prepare this existing inactive API connection instead of creating one',
      text('--target'),
    )
    .option('--force', 'go on although ready objects remain unsynced (they are listed and recorded)')
    .option('--skip-sync', 'do not run the object sync first; only list what is outstanding')
    .option('--backup-dir <dir>', 'folder of the chart backup file', text('--backup-dir'), DEFAULT_BACKUP_DIR)
    .option('--json', 'print the result as JSON')
    .action((flags: PrepareFlags) => withRuntime((runtime) => prepareCommand(runtime, flags)));
  group
    .command('status')
    .description('the latest migration: its new connection, preload counts, backup and readiness')
    .option('--json', 'print the status as JSON')
    .action((flags: { json?: boolean }) =>
      withRuntime((runtime) =>
        withApp(runtime, async (app) => {
          const status = await migrationStatus(app);
          process.stdout.write(flags.json ? `${JSON.stringify(status)}\n` : statusText(status));
          return EXIT.ok;
        }),
      ),
    );
  group
    .command('abandon')
    .description('drop the open migration so another can start (the platform cannot undo ready-to-migrate)')
    .option('--json', 'print the result as JSON')
    .action((flags: { json?: boolean }) => withRuntime((runtime) => abandonCommand(runtime, flags)));
}

function prepareCommand(runtime: Runtime, flags: PrepareFlags): Promise<number> {
  return withApp(runtime, async (app) => {
    const result = await prepareMigration(app, {
      provider: flags.provider,
      sourceConnectionId: runtime.config.PLATFORM_CONNECTION_ID,
      targetConnectionId: flags.target,
      force: flags.force === true,
      skipSync: flags.skipSync === true,
      backupDir: flags.backupDir,
      onStep: flags.json ? undefined : (event) => process.stdout.write(`${stepLine(event)}\n`),
    });
    const ok = result.outcome === 'ready' || result.outcome === 'unchanged';
    if (flags.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else (ok ? process.stdout : process.stderr).write(prepareText(result));
    return PREPARE_EXIT[result.outcome];
  });
}

function abandonCommand(runtime: Runtime, flags: { json?: boolean }): Promise<number> {
  return withApp(runtime, async (app) => {
    const result = await abandonOpenMigration(app);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } else if (!result.abandoned) {
      process.stdout.write('No migration is in progress; nothing to abandon.\n');
    } else {
      process.stdout.write(
        `Migration #${result.abandoned.id} to "${result.abandoned.provider}" abandoned.\n`,
      );
      for (const warning of result.warnings) process.stderr.write(`Warning: ${warning}\n`);
    }
    return EXIT.ok;
  });
}
