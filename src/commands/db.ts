import type { Command } from 'commander';
import { withRuntime } from './runtime.ts';

export function registerDbCommands(program: Command): void {
  const db = program.command('db').description("the worker's database");
  db.command('migrate')
    .description('apply pending migrations (worker schema and built-in ERP); safe to run concurrently')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      // Every command applies pending migrations on start (runtime.ts); this one reports them.
      withRuntime(async ({ migrated: applied }) => {
        if (options.json) process.stdout.write(`${JSON.stringify({ applied })}\n`);
        else
          process.stdout.write(
            applied.length ? `Applied: ${applied.join(', ')}\n` : 'Schema is up to date.\n',
          );
        return 0;
      }),
    );
}
