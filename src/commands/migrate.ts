import { resolve } from 'node:path';
import { Queue } from 'bullmq';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { EXIT } from '../exit-codes.ts';
import {
  enqueueMigration,
  JOB_OPTIONS,
  MigrationPayload,
  producerConnection,
  QUEUE_NAMES,
} from '../queue/index.ts';
import {
  abandonOpenMigration,
  DEFAULT_BACKUP_DIR,
  migrationStatus,
  type PrepareOutcome,
  prepareMigration,
  prepareText,
  RestoreInputError,
  type RestoreResult,
  restoreChart,
  restoreText,
  statusText,
  stepLine,
} from '../sync/connection-migration/index.ts';
import { CommandError, type Runtime, withRuntime } from './runtime.ts';
import { withApp } from './with-app.ts';

/**
 * Exit codes of `migrate prepare` (README "Exit codes"): 0 ready or nothing to change, 1 a
 * precondition is not met (the message says what to do) or an unexpected failure, 2 bad
 * arguments, 3 the preload was refused in part or does not match the ERP, 69 another prepare is
 * running, 78 the platform is not configured.
 */
const PREPARE_EXIT: Record<PrepareOutcome, number> = {
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

/** Exit codes of `migrate restore`: 0 restored, 3 some items refused or skipped, 69 busy. */
const RESTORE_EXIT: Record<RestoreResult['outcome'], number> = {
  restored: EXIT.ok,
  incomplete: EXIT.partial,
  busy: EXIT.unavailable,
};

interface PrepareFlags {
  provider: string;
  target?: string;
  force?: boolean;
  skipSync?: boolean;
  backupDir: string;
  queue?: boolean;
  json?: boolean;
}

interface RestoreFlags {
  fromFile?: string;
  fromBackup?: string;
  connection: string;
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
    .option(
      '--queue',
      'do not run it here: add it to the migration queue for the worker, which resumes it after a crash',
    )
    .option('--json', 'print the result as JSON')
    .action((flags: PrepareFlags) =>
      withRuntime((runtime) => (flags.queue ? queueCommand(runtime, flags) : prepareCommand(runtime, flags))),
    );
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
    .command('restore')
    .description(
      'upload a backed-up chart onto a connection again (the active one after a switch went wrong, or a new ' +
        "inactive one), with the chart mirror's diff and adoption; resumable, and a no-op once done",
    )
    .addOption(
      new Option('--from-file <path>', 'a backup file `migrate prepare` wrote')
        .argParser(text('--from-file'))
        .conflicts('fromBackup'),
    )
    .addOption(
      new Option(
        '--from-backup <migration-id>',
        "the copy in the database, by the migration's number",
      ).argParser(text('--from-backup')),
    )
    .requiredOption('--connection <connection-id>', 'the connection to upload onto', text('--connection'))
    .option('--json', 'print the result as JSON')
    .action(function (this: Command, flags: RestoreFlags) {
      if (!flags.fromFile && !flags.fromBackup) {
        this.error('error: one of --from-file <path> or --from-backup <migration-id> is required', {
          exitCode: EXIT.usage,
        });
      }
      return withRuntime((runtime) => restoreCommand(runtime, flags));
    });
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

/** `migrate prepare --queue`: the same run, as a job the worker takes (jobs/connection-migration.ts). */
function queueCommand(runtime: Runtime, flags: PrepareFlags): Promise<number> {
  return withApp(runtime, async () => {
    const payload = MigrationPayload.parse({
      provider: flags.provider,
      sourceConnectionId: runtime.config.PLATFORM_CONNECTION_ID,
      targetConnectionId: flags.target,
      force: flags.force === true,
      skipSync: flags.skipSync === true,
      // The worker may run elsewhere in the file system: the folder as this command sees it.
      backupDir: resolve(flags.backupDir),
      trigger: 'cli',
    });
    const queue = new Queue(QUEUE_NAMES.migration, {
      connection: producerConnection(runtime.services.redisUrl),
      prefix: runtime.config.QUEUE_PREFIX,
      defaultJobOptions: JOB_OPTIONS.migration,
    });
    try {
      const queued = await enqueueMigration(queue, payload);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ queue: QUEUE_NAMES.migration, ...queued })}\n`);
      } else if (queued.already) {
        process.stdout.write(
          `A \`migrate prepare\` job is already waiting or running (job ${queued.jobId}); nothing was added. ` +
            'Follow it with `npx ledgersync migrate status`.\n',
        );
      } else {
        process.stdout.write(
          `Queued \`migrate prepare\` as job ${queued.jobId}: the worker (\`npx ledgersync worker\`) runs it, and ` +
            'resumes it if it is stopped. Follow it with `npx ledgersync status` or `npx ledgersync migrate status`.\n',
        );
      }
      return EXIT.ok;
    } finally {
      await queue.close().catch(() => undefined);
    }
  });
}

function restoreCommand(runtime: Runtime, flags: RestoreFlags): Promise<number> {
  return withApp(runtime, async (app) => {
    let result: RestoreResult;
    try {
      result = await restoreChart(app, {
        connectionId: flags.connection,
        from: flags.fromFile ? { file: resolve(flags.fromFile) } : { migrationId: flags.fromBackup! },
      });
    } catch (error) {
      if (error instanceof RestoreInputError) throw new CommandError(error.message, EXIT.failed);
      throw error;
    }
    if (flags.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else (result.outcome === 'restored' ? process.stdout : process.stderr).write(restoreText(result));
    return RESTORE_EXIT[result.outcome];
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
