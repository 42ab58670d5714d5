import type { Sql } from 'postgres';
import { importPlatformEntities } from '../app/index.ts';
import { chartSummary, type SeedCounts, seedLedger } from '../erp/index.ts';
import { EXIT } from '../exit-codes.ts';
import type { Logger } from '../log.ts';
import type { ConnectionSettingsInput, PlatformClient } from '../platform/index.ts';
import { CommandError } from './runtime.ts';

/**
 * A world on the built-in platform stub coded against the built-in ERP: the set-up that
 * `demo`, `try` and docker-compose.yml's `setup` service (`erp seed`, `connection create`,
 * `erp seed-stub-world`, `erp open-books`, one CLI verb each) all do, in that order.
 */

/** Ready objects to seed, from the number of card transactions (`erp seed-stub-world` options). */
export interface WorldSize {
  seed: number;
  transactions: number;
}

/** What POST /__stub/seed answers: the ready count per kind, and what else the stub says of the world. */
export type SeededWorld = { ready: Record<string, number> } & Record<string, unknown>;

const DEFAULT_WORLD: WorldSize = { seed: 2026, transactions: 600 };

/**
 * Fills the stub at `stubUrl` (its root, not the /developer/v1 API URL) with ready objects coded
 * against the built-in ERP's chart; returns the stub's answer, whose `ready` counts the ready objects per kind.
 */
export async function seedStubWorld(
  sql: Sql,
  ledgerSchema: string,
  stubUrl: string,
  size: WorldSize = DEFAULT_WORLD,
): Promise<SeededWorld> {
  const chart = await chartSummary(sql, ledgerSchema);
  const response = await fetch(`${stubUrl}/__stub/seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      seed: size.seed,
      transactions: size.transactions,
      reimbursements: Math.ceil(size.transactions / 8),
      transfers: 20,
      cashbacks: 20,
      bills: Math.ceil(size.transactions / 5),
      chart: {
        gl_accounts: chart.gl_accounts,
        vendors: chart.vendors,
        tax_codes: chart.tax_codes,
        fields: chart.fields.map((f) => ({ id: f.id, options: f.options })),
      },
    }),
  }).catch((error: Error) => {
    throw new CommandError(`the stub at ${stubUrl} cannot be reached: ${error.message}`, EXIT.unavailable);
  });
  if (!response.ok)
    throw new CommandError(`the stub at ${stubUrl} refused the seed: HTTP ${response.status}`);
  return (await response.json()) as SeededWorld;
}

export interface StubWorld {
  ledger: SeedCounts;
  connectionId: string;
  ready: Record<string, number>;
  booksOpened: number;
}

/** Seeds the built-in ERP, creates the active connection, seeds the stub's world and opens books. */
export async function setUpStubWorld(options: {
  sql: Sql;
  ledgerSchema: string;
  platform: PlatformClient;
  stubUrl: string;
  log: Logger;
  provider?: string;
  settings?: ConnectionSettingsInput;
}): Promise<StubWorld> {
  const { sql, ledgerSchema, platform, stubUrl, log } = options;
  const ledger = await seedLedger(sql, ledgerSchema, { preset: 'small', seed: 1, log });
  const connection = await platform.connection.create({
    remote_provider_name: options.provider ?? 'Built-in ledger',
    ...(options.settings ? { settings: options.settings } : {}),
  });
  const { ready } = await seedStubWorld(sql, ledgerSchema, stubUrl);
  const entities = (await platform.entities.list().collect()).values;
  const booksOpened = await importPlatformEntities(sql, ledgerSchema, entities);
  return { ledger, connectionId: connection.id, ready, booksOpened };
}
