import type { Command } from 'commander';
import { EXIT } from '../exit-codes.ts';
import { replayObject } from '../sync/objects/index.ts';
import { withRuntime } from './runtime.ts';
import { withConnection } from './with-app.ts';

/** The exit code of each replay result (README "Exit codes"). */
const EXIT_OF = {
  synced: EXIT.ok,
  failed: EXIT.partial,
  rejected: EXIT.failed,
  not_found: EXIT.failed,
  not_ready: EXIT.failed,
  busy: EXIT.unavailable,
  unsupported: EXIT.usage,
} as const;

export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .description('re-sync one object now (after the bookkeeper fixed what its failure named)')
    .argument('<object-id>', 'the platform id of a transaction, reimbursement or bill')
    .option('--json', 'print the result as JSON')
    .action((objectId: string, options: { json?: boolean }) =>
      withRuntime((runtime) =>
        withConnection(runtime, async (app, connectionId) => {
          const { sql, log } = runtime;
          const result = await replayObject(
            { sql, erp: app.erp, platform: app.syncPlatform, connectionId, log },
            app.platform,
            objectId,
          );
          // The result is data (stdout); an object that did not sync is an error (stderr).
          if (options.json) process.stdout.write(`${JSON.stringify(result)}\n`);
          else if (result.status === 'synced')
            process.stdout.write(`${objectId}: synced (${result.kind}).\n`);
          else
            process.stderr.write(
              `ledgersync: ${objectId}: ${result.status.replace('_', ' ')}. ${result.message ?? ''}\n`,
            );
          return EXIT_OF[result.status];
        }),
      ),
    );
}
