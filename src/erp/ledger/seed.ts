import type { Sql } from 'postgres';
import type { Logger } from '../../log.ts';
import { LedgerChartWriter } from './chart-write.ts';
import { migrateLedger } from './migrate.ts';
import { generateChart, type SeedPreset } from './seed-chart.ts';

export interface SeedOptions {
  preset?: SeedPreset;
  seed?: number;
  log?: Logger;
}

export interface SeedCounts {
  entities: number;
  accounts: number;
  fields: number;
  options: number;
  vendors: number;
  taxRates: number;
  taxCodes: number;
}

/**
 * Migrates the ledger's schema and loads a generated chart (seed-chart.ts) into it. Items that
 * already exist are kept, so seeding twice with the same preset and seed changes nothing; the
 * counts say what this call inserted.
 */
export async function seedLedger(sql: Sql, schema: string, options: SeedOptions = {}): Promise<SeedCounts> {
  await migrateLedger(sql, schema, options.log);
  const chart = generateChart(options.preset ?? 'small', options.seed ?? 1);
  const write = new LedgerChartWriter(sql, schema);
  const counts: SeedCounts = {
    entities: await write.entities(chart.entities),
    accounts: await write.accounts(chart.accounts),
    fields: await write.fields(chart.fields),
    options: await write.options(chart.options),
    vendors: await write.vendors(chart.vendors),
    taxRates: await write.taxRates(chart.taxRates),
    taxCodes: await write.taxCodes(chart.taxCodes),
  };
  await write.postingDefaults(chart.defaults);
  options.log?.info(
    { schema, preset: options.preset ?? 'small', seed: options.seed ?? 1, ...counts },
    'seeded ledger',
  );
  return counts;
}
