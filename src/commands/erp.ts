import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { seedLedger } from '../erp/ledger/seed.ts';
import { formatTrialBalance, trialBalance, trialBalanceTotals } from '../erp/ledger/trial-balance.ts';
import { CommandError, EXIT, withRuntime } from './runtime.ts';

function preset(value: string): 'small' | 'large' {
  if (value !== 'small' && value !== 'large') throw new InvalidArgumentError('use small or large');
  return value;
}

function integer(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('must be a whole number');
  return n;
}

export function registerErpCommands(program: Command): void {
  const erp = program.command('erp').description('the built-in ledger ERP');
  erp
    .command('seed')
    .description('load a realistic chart of accounts into the built-in ledger (idempotent)')
    .option('--preset <preset>', 'small (~150 accounts) or large (100k items)', preset, 'small')
    .option('--seed <n>', 'generator seed: the same seed makes the same chart', integer, 1)
    .option('--json', 'print the counts as JSON')
    .action((options: { preset: 'small' | 'large'; seed: number; json?: boolean }) =>
      withRuntime(async ({ sql, config, log }) => {
        if (config.ERP !== 'ledger')
          throw new CommandError('erp seed works on the built-in ledger (ERP=ledger)', EXIT.usage);
        const counts = await seedLedger(sql, config.LEDGER_SCHEMA, {
          preset: options.preset,
          seed: options.seed,
          log,
        });
        if (options.json) process.stdout.write(`${JSON.stringify(counts)}\n`);
        else {
          const parts = Object.entries(counts).map(([k, v]) => `${v} ${k}`);
          process.stdout.write(
            `Seeded the ledger (${options.preset}, seed ${options.seed}): ${parts.join(', ')} added.\n`,
          );
        }
        return EXIT.ok;
      }),
    );
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
