import type { Command } from 'commander';
import { migrateAll } from '../../db/runner.ts';
import { withRuntime } from './runtime.ts';

export function registerDbCommands(program: Command): void {
  const db = program.command('db').description("the worker's database");
  db.command('migrate')
    .description('apply pending migrations (worker schema and built-in ledger); safe to run concurrently')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      withRuntime(async ({ sql, config, log }) => {
        const ledgerSchema = config.ERP === 'ledger' ? config.LEDGER_SCHEMA : undefined;
        const { applied } = await migrateAll(sql, { schema: config.DATABASE_SCHEMA, ledgerSchema, log });
        if (options.json) process.stdout.write(`${JSON.stringify({ applied })}\n`);
        else
          process.stdout.write(
            applied.length ? `Applied: ${applied.join(', ')}\n` : 'Schema is up to date.\n',
          );
        return 0;
      }),
    );
}
