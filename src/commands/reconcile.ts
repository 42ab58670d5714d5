import type { Command } from 'commander';
import { EXIT } from '../exit-codes.ts';
import { acknowledge, reconcile } from '../sync/reconcile/reconcile.ts';
import { CommandError, withRuntime } from './runtime.ts';
import { withConnection } from './with-app.ts';

/**
 * docs/platform.md G25. `reconcile` lists every object synced outside ledgersync that is not
 * acknowledged, every time it runs (README "Exit codes": 3 while any is listed, 0 when none);
 * `reconcile --ack <id…>` or `--ack-all` acknowledges them, so they are listed no more.
 */
export function registerReconcileCommand(program: Command): void {
  program
    .command('reconcile')
    .description(
      'list objects the platform shows as synced that ledgersync never reported (manual export), until acknowledged with --ack',
    )
    .option('--ack <object-ids...>', 'acknowledge these listed objects: they are listed no more')
    .option('--ack-all', 'acknowledge every listed object')
    .option('--json', 'print the list as JSON')
    .action((options: { json?: boolean; ack?: string[]; ackAll?: boolean }) =>
      withRuntime((runtime) =>
        withConnection(runtime, async (app, connectionId) => {
          const { sql } = runtime;
          if (options.ack || options.ackAll) {
            if (options.ack && options.ackAll)
              throw new CommandError('use --ack <ids…> or --ack-all, not both', EXIT.usage);
            const done = await acknowledge(sql, connectionId, options.ackAll ? null : options.ack!);
            if (options.json) process.stdout.write(`${JSON.stringify(done)}\n`);
            else
              process.stdout.write(`Acknowledged ${done.acknowledged} objects synced outside ledgersync.\n`);
            if (done.notFound.length > 0)
              throw new CommandError(
                `not listed by reconcile (unknown or already acknowledged): ${done.notFound.join(', ')}`,
              );
            return EXIT.ok;
          }
          const found = await reconcile(sql, app.platform, connectionId);
          if (options.json) process.stdout.write(`${JSON.stringify(found)}\n`);
          else if (found.length === 0)
            process.stdout.write('Nothing synced outside ledgersync waits for acknowledgement.\n');
          else {
            process.stdout.write(
              `${found.length} objects were marked synced outside ledgersync (the platform's manual export). ` +
                'They are not in the ERP through ledgersync; check them with the bookkeeper, then acknowledge them ' +
                'with `ledgersync reconcile --ack <object-id…>` (or --ack-all):\n',
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
