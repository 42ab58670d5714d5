import { afterAll, beforeAll } from 'vitest';
import { importPlatformEntities } from '../../src/app/open-books.ts';
import { createErp, type ErpAdapter } from '../../src/erp/index.ts';
import { chartSummary } from '../../src/erp/ledger/chart-summary.ts';
import { seedLedger } from '../../src/erp/ledger/seed.ts';
import { silentLogger } from '../../src/log.ts';
import { createPlatformClient, type PlatformClient } from '../../src/platform/client.ts';
import { DEFAULT_CLIENT, type RunningStub, type StubOptions, startStub } from '../../src/stub/index.ts';
import { syncPlatformFrom } from '../../src/sync/objects/platform-adapter.ts';
import type { SyncPlatform } from '../../src/sync/objects/platform-port.ts';
import { type TestDatabase, useTestDatabase } from './db.ts';
import { useTestRedis } from './redis.ts';
import { stubControl } from './stub-control.ts';

export interface SyncWorld {
  db: TestDatabase;
  ledgerSchema: string;
  readonly stub: RunningStub;
  readonly platform: PlatformClient;
  readonly syncPlatform: SyncPlatform;
  readonly erp: ErpAdapter;
  readonly connectionId: string;
  /** Calls a /__stub control route. */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Seeds platform objects coded against the ledger's real chart. */
  seed(body: Record<string, unknown>): Promise<Record<string, unknown>>;
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
  let stub: RunningStub | undefined;
  let platform: PlatformClient | undefined;
  let erp: ErpAdapter | undefined;
  let connectionId = '';

  const control = stubControl(() => stub!.url);

  beforeAll(async () => {
    await seedLedger(db.sql, ledgerSchema, { preset: 'small', seed: 3 });
    stub = await startStub({ rateLimit: false, ...options.stub });
    platform = createPlatformClient({
      baseUrl: stub.apiUrl,
      clientId: DEFAULT_CLIENT.client_id,
      clientSecret: DEFAULT_CLIENT.client_secret,
      scopes:
        'accounting:read accounting:write transactions:read reimbursements:read transfers:read cashbacks:read bills:read entities:read',
      redis: redis.connect(),
      keyPrefix: redis.prefix,
      retry: { baseMs: 20, capMs: 200 },
    });
    erp = createErp({ kind: 'ledger', sql: db.sql, schema: ledgerSchema }, { log: silentLogger });
    const connection = await platform.connection.create({
      remote_provider_name: 'Built-in ledger',
      is_active: true,
      settings: { transaction_accounting_vendor_creation_on_sync_enabled: true, ...options.settings },
    });
    connectionId = connection.id;
  });

  afterAll(async () => {
    await erp?.close();
    await platform?.close();
    await stub?.close();
  });

  return {
    db,
    ledgerSchema,
    get stub() {
      return stub!;
    },
    get platform() {
      return platform!;
    },
    get syncPlatform() {
      return syncPlatformFrom(platform!);
    },
    get erp() {
      return erp!;
    },
    get connectionId() {
      return connectionId;
    },
    control,
    async seed(body) {
      const chart = await chartSummary(db.sql, ledgerSchema);
      const { gl_accounts, vendors, tax_codes } = chart;
      const fields = chart.fields.map((f) => ({ id: f.id, options: f.options }));
      const seeded = await control<Record<string, unknown>>('POST', '/__stub/seed', {
        chart: { gl_accounts, vendors, tax_codes, fields },
        ...body,
      });
      const entities = await platform!.entities.list().collect();
      await importPlatformEntities(db.sql, ledgerSchema, entities.values);
      return seeded;
    },
  };
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
