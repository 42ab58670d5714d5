import { DEFAULT_CLIENT, type StubOptions } from '@ledgersync/stub';
import { importPlatformEntities } from '../../src/app/index.ts';
import { chartSummary, createErp, seedLedger } from '../../src/erp/index.ts';
import { silentLogger } from '../../src/log.ts';
import { type TestDatabase, useTestDatabase } from './db.ts';
import { type PlatformSide, usePlatformSide } from './platform-side.ts';
import { useTestRedis } from './redis.ts';

export interface SyncWorld extends PlatformSide {
  db: TestDatabase;
  ledgerSchema: string;
}

/**
 * The whole system for a test file: a fresh schema with the worker's state, a seeded built-in
 * ledger, the platform stub over real HTTP, the real platform client, and an active connection.
 */
export function useSyncWorld(
  options: { stub?: StubOptions; settings?: Record<string, boolean> } = {},
): SyncWorld {
  const db = useTestDatabase();
  const redis = useTestRedis();
  const ledgerSchema = db.newSchema('ledger');
  return usePlatformSide(
    { db, ledgerSchema },
    {
      redis,
      stub: options.stub,
      provider: 'Built-in ledger',
      settings: options.settings,
      prepare: async () => {
        await seedLedger(db.sql, ledgerSchema, { preset: 'small', seed: 3 });
      },
      openErp: () => createErp({ kind: 'ledger', sql: db.sql, schema: ledgerSchema }, { log: silentLogger }),
      chart: async () => {
        const chart = await chartSummary(db.sql, ledgerSchema);
        const { gl_accounts, vendors, tax_codes } = chart;
        const fields = chart.fields.map((f) => ({ id: f.id, options: f.options }));
        return { gl_accounts, vendors, tax_codes, fields };
      },
      openEntities: async (entities) => {
        await importPlatformEntities(db.sql, ledgerSchema, entities);
      },
    },
  );
}

/**
 * The environment that points the real binary (or the compiled program, or a worker child) at a
 * sync world: its stub and the stub's development client, its database schemas and a Redis.
 */
export function worldEnv(world: SyncWorld, redis: { url: string; prefix: string }): Record<string, string> {
  return {
    PLATFORM_BASE_URL: world.stub.apiUrl,
    PLATFORM_CLIENT_ID: DEFAULT_CLIENT.client_id,
    PLATFORM_CLIENT_SECRET: DEFAULT_CLIENT.client_secret,
    DATABASE_URL: world.db.url,
    DATABASE_SCHEMA: world.db.schema,
    LEDGER_SCHEMA: world.ledgerSchema,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: redis.prefix,
  };
}
