import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { importPlatformEntities } from '../app/index.ts';
import {
  formatTrialBalance,
  holdsOtherBooks,
  seedKitBooks,
  seedLedger,
  trialBalance,
  trialBalanceTotals,
} from '../erp/index.ts';
import { EXIT } from '../exit-codes.ts';
import { registerErpCheckCommand } from './erp-check.ts';
import { serveLedgerErp } from './erp-serve.ts';
import { CommandError, type Runtime, withRuntime } from './runtime.ts';
import { seedStubWorld } from './stub-world.ts';
import { withApp } from './with-app.ts';

function preset(value: string): 'small' | 'large' {
  if (value !== 'small' && value !== 'large') throw new InvalidArgumentError('use small or large');
  return value;
}

function url(value: string): string {
  try {
    return new URL(value).toString().replace(/\/$/, '');
  } catch {
    throw new InvalidArgumentError('must be a URL such as http://127.0.0.1:4010');
  }
}

function requireLedger(config: Runtime['config'], verb: string): void {
  if (config.ERP !== 'ledger')
    throw new CommandError(`erp ${verb} works on the built-in ERP (ERP=ledger)`, EXIT.usage);
}

function integer(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('must be a whole number');
  return n;
}

export function registerErpCommands(program: Command): void {
  const erp = program.command('erp').description('the built-in ERP, and checks of any ERP service');
  erp
    .command('seed')
    .description('load a realistic chart of accounts into the built-in ERP (idempotent)')
    .option('--preset <preset>', 'small (~150 accounts) or large (100k items)', preset, 'small')
    .option('--seed <n>', 'generator seed: the same seed makes the same chart', integer, 1)
    .option('--json', 'print the counts as JSON')
    .action((options: { preset: 'small' | 'large'; seed: number; json?: boolean }) =>
      withRuntime(async ({ sql, config, log }) => {
        if (config.ERP !== 'ledger')
          throw new CommandError('erp seed works on the built-in ERP (ERP=ledger)', EXIT.usage);
        const counts = await seedLedger(sql, config.LEDGER_SCHEMA, {
          preset: options.preset,
          seed: options.seed,
          log,
        });
        if (options.json) process.stdout.write(`${JSON.stringify(counts)}\n`);
        else {
          const parts = Object.entries(counts).map(([k, v]) => `${v} ${k}`);
          process.stdout.write(
            `Seeded the built-in ERP (${options.preset}, seed ${options.seed}): ${parts.join(', ')} added.\n`,
          );
        }
        return EXIT.ok;
      }),
    );
  erp
    .command('open-books')
    .description("open books in the built-in ERP for each of the platform's entities (idempotent)")
    .option('--json', 'print the counts as JSON')
    .action((options: { json?: boolean }) =>
      withRuntime((runtime) =>
        withApp(runtime, async (app) => {
          requireLedger(runtime.config, 'open-books');
          const entities = (await app.platform.entities.list().collect()).values;
          const added = await importPlatformEntities(runtime.sql, runtime.config.LEDGER_SCHEMA, entities);
          const withoutCurrency = entities.filter((e) => !e.currency).map((e) => e.id);
          if (options.json)
            process.stdout.write(
              `${JSON.stringify({ entities: entities.length, added, withoutCurrency })}\n`,
            );
          else {
            process.stdout.write(`Opened books for ${added} of ${entities.length} platform entities.\n`);
            if (withoutCurrency.length > 0)
              process.stdout.write(
                `No books for ${withoutCurrency.join(', ')}: the platform names no currency for them.\n`,
              );
          }
          return EXIT.ok;
        }),
      ),
    );
  erp
    .command('seed-stub-world')
    .description(
      "fill a running built-in platform stub with ready objects coded against the built-in ERP's chart",
    )
    .requiredOption(
      '--stub-url <url>',
      'the stub, e.g. http://127.0.0.1:4010 (not the /developer/v1 API URL)',
      url,
    )
    .option('--seed <n>', 'generator seed: the same seed makes the same world', integer, 2026)
    .option('--transactions <n>', 'ready card transactions to create', integer, 600)
    .option('--json', 'print what was seeded as JSON')
    .action((options: { stubUrl: string; seed: number; transactions: number; json?: boolean }) =>
      withRuntime(async ({ sql, config }) => {
        requireLedger(config, 'seed-stub-world');
        const seeded = await seedStubWorld(sql, config.LEDGER_SCHEMA, options.stubUrl, {
          seed: options.seed,
          transactions: options.transactions,
        });
        if (options.json) process.stdout.write(`${JSON.stringify(seeded)}\n`);
        else
          process.stdout.write(
            `Seeded the stub: ${Object.entries(seeded.ready)
              .map(([k, n]) => `${n} ${k}`)
              .join(', ')} ready.\n`,
          );
        return EXIT.ok;
      }),
    );
  erp
    .command('serve')
    .description('serve the built-in ERP over the HTTP ERP contract (docs/erp-http.md)')
    .option('--port <n>', 'port to listen on (0 = any free port)', integer, 4020)
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .action((options: { port: number; host: string }) =>
      withRuntime(async (runtime) => {
        requireLedger(runtime.config, 'serve');
        await serveLedgerErp(runtime, options);
        // Serves until SIGINT/SIGTERM, whose cleanups close the server, then the pool.
        return new Promise<never>(() => {});
      }),
    );
  erp
    .command('kit-books')
    .description('set up test books in LEDGER_SCHEMA for `erp check` and print their fixture JSON')
    .action(() =>
      withRuntime(async ({ sql, config }) => {
        requireLedger(config, 'kit-books');
        const schema = config.LEDGER_SCHEMA;
        // The kit's books close a month and make a field required on bills: never someone's books.
        if (await holdsOtherBooks(sql, schema))
          throw new CommandError(
            `the ledger in LEDGER_SCHEMA=${schema} holds postings: kit-books sets up test books, so give it a fresh schema (e.g. LEDGER_SCHEMA=ledger_kit)`,
          );
        const fixture = await seedKitBooks(sql, schema);
        process.stdout.write(`${JSON.stringify(fixture, null, 2)}\n`);
        return EXIT.ok;
      }),
    );
  registerErpCheckCommand(erp);
  erp
    .command('trial-balance')
    .description('debits, credits and balance per account; balanced books total zero per currency')
    .option('--json', 'print rows and totals as JSON')
    .action((options: { json?: boolean }) =>
      withRuntime(async ({ sql, config }) => {
        const rows = await trialBalance(sql, config.LEDGER_SCHEMA);
        const totals = Object.fromEntries(trialBalanceTotals(rows));
        if (options.json) process.stdout.write(`${JSON.stringify({ rows, totals })}\n`);
        else process.stdout.write(`${formatTrialBalance(rows)}\n`);
        const unbalanced = Object.values(totals).some((t) => t !== 0);
        return unbalanced ? EXIT.failed : EXIT.ok;
      }),
    );
}
