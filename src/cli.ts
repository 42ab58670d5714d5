import { Command, CommanderError } from 'commander';
import { registerConnectCommand } from './commands/connect.ts';
import { registerConnectionCommands } from './commands/connection.ts';
import { registerDbCommands } from './commands/db.ts';
import { registerDemoCommand } from './commands/demo.ts';
import { registerErpCommands } from './commands/erp.ts';
import { registerMigrateCommands } from './commands/migrate.ts';
import { registerReconcileCommand } from './commands/reconcile.ts';
import { registerReplayCommand } from './commands/replay.ts';
import { loadConfigOrExit } from './commands/runtime.ts';
import { registerStatusCommand } from './commands/status.ts';
import { guardStrayRejections } from './commands/stray-rejections.ts';
import { registerStubCommand } from './commands/stub.ts';
import { registerSyncCommand } from './commands/sync.ts';
import { registerTryCommand } from './commands/try.ts';
import { registerWorkerCommand } from './commands/worker.ts';
import { EXIT } from './exit-codes.ts';
import { VERSION } from './version.ts';

// A database outage that surfaces as a rejection nothing awaited ends a command as any outage
// does (exit 69, one line); `worker` switches this to a warning (src/commands/stray-rejections.ts).
guardStrayRejections('command');

const program = new Command()
  .name('ledgersync')
  .description("Syncs a customer's ERP with the svc spend platform.")
  .version(VERSION, '-V, --version', 'print the version and exit')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

registerDemoCommand(program);
registerDbCommands(program);
registerErpCommands(program);
registerSyncCommand(program);
registerReconcileCommand(program);
registerMigrateCommands(program);
registerWorkerCommand(program);
registerReplayCommand(program);
registerStatusCommand(program);
registerConnectionCommands(program);
registerConnectCommand(program);
registerStubCommand(program, () => loadConfigOrExit().STUB_PORT);
registerTryCommand(program, () => loadConfigOrExit().STUB_PORT);

// A broken environment is reported before anything else, whatever the command (not for --help).
const args = process.argv.slice(2);
const informational = ['--help', '-h', 'help', '--version', '-V'];
if (!args.some((a) => informational.includes(a))) loadConfigOrExit();

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help asked for and the version are not failures (commander exits them with 0); every other
    // parse error is a usage error, and so is no command at all: commander then prints the usage
    // on stderr and ends with a non-zero code under 'commander.help', like a help never asked for.
    process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
  }
  throw error;
}
