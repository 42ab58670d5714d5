import type { Command } from 'commander';
import { EXIT } from '../exit-codes.ts';
import { reconcile } from '../sync/reconcile/reconcile.ts';
import { withRuntime } from './runtime.ts';
import { withConnection } from './with-app.ts';

export function registerReconcileCommand(program: Command): void {
  program
    .command('reconcile')
    .description('list objects the platform shows as synced that ledgersync never reported (manual export)')
    .option('--json', 'print the list as JSON')
    .action((options: { json?: boolean }) =>
      withRuntime((runtime) =>
        withConnection(runtime, async (app, connectionId) => {
          const { sql } = runtime;
          const found = await reconcile(sql, app.platform, connectionId);
          if (options.json) process.stdout.write(`${JSON.stringify(found)}\n`);
          else if (found.length === 0)
            process.stdout.write('Nothing was synced outside ledgersync since the last reconcile.\n');
          else {
            process.stdout.write(
              `${found.length} objects were marked synced outside ledgersync (the platform's manual export). ` +
                'They are not in the ERP through ledgersync; check them with the bookkeeper:\n',
            );
            for (const f of found)
              process.stdout.write(
                `  ${f.syncType}  ${f.objectId}  synced ${f.syncedAt ?? 'at an unknown time'}\n`,
              );
          }
          return found.length > 0 ? EXIT.partial : EXIT.ok;
        }),
      ),
    );
}
