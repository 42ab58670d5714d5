import { type RunningStub, startStub } from '@ledgersync/stub';
import { afterAll, beforeAll } from 'vitest';
import { LEDGER_MIGRATIONS, migrate } from '../../../../../db/runner.ts';
import { createErp, type ErpAdapter, LedgerAdmin, LedgerChartWriter } from '../../../../../src/erp/index.ts';
import { createLogger, silentLogger } from '../../../../../src/log.ts';
import { createPlatformClient, type PlatformClient } from '../../../../../src/platform/index.ts';
import {
  type MirrorDeps,
  type MirrorOptions,
  type MirrorSummary,
  mirrorChart,
} from '../../../../../src/sync/mirror/index.ts';
import { type TestDatabase, useTestDatabase } from '../../../../support/db.ts';
import { useTestRedis } from '../../../../support/redis.ts';

/**
 * One stub (in-process, real HTTP), one platform client, the worker's schema and fresh ledger
 * schemas: what every mirror integration test needs. Everything is closed in afterAll.
 */
export interface MirrorHarness {
  readonly db: TestDatabase;
  readonly stub: RunningStub;
  readonly client: PlatformClient;
  /** What another process needs to build the same client (the kill -9 test). */
  readonly clientConfig: {
    apiUrl: string;
    clientId: string;
    clientSecret: string;
    redisUrl: string;
    keyPrefix: string;
  };
  /** A fresh, migrated, empty ledger ERP in its own schema. */
  newLedger(): Promise<Ledger>;
  /** A new API connection; a new active one unlinks the incumbent first (F6 would return it). */
  newConnection(options?: { active?: boolean }): Promise<string>;
  mirror(
    ledger: Ledger,
    connectionId: string,
    options?: MirrorOptions,
    over?: Partial<MirrorDeps>,
  ): Promise<MirrorSummary>;
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

export interface Ledger {
  schema: string;
  erp: ErpAdapter;
  write: LedgerChartWriter;
  admin: LedgerAdmin;
}

const CLIENT = { client_id: 'mirror-tests', client_secret: 'mirror-tests-secret' };

export function useMirrorHarness(options: { rateLimit?: false } = {}): MirrorHarness {
  const db = useTestDatabase();
  const redis = useTestRedis();
  let stub: RunningStub | undefined;
  let client: PlatformClient | undefined;
  let ledgers = 0;

  beforeAll(async () => {
    stub = await startStub({ port: 0, ...(options.rateLimit === false ? { rateLimit: false } : {}) });
    await control('POST', '/__stub/clients', { ...CLIENT, scopes: 'accounting:read accounting:write' });
    client = createPlatformClient({
      baseUrl: stub.apiUrl,
      clientId: CLIENT.client_id,
      clientSecret: CLIENT.client_secret,
      scopes: ['accounting:read', 'accounting:write'],
      redis: redis.url,
      keyPrefix: redis.prefix,
      ...(options.rateLimit === false ? { limiter: { max: 100_000 } } : {}),
      retry: { maxAttempts: 3, baseMs: 20, capMs: 200 },
      requestTimeoutMs: 20_000,
      log: process.env.MIRROR_DEBUG ? createLogger({ level: 'debug', pretty: false }) : silentLogger,
    });
  });
  afterAll(async () => {
    await client?.close();
    await stub?.close();
  });

  async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${stub!.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  return {
    db,
    get stub() {
      return stub!;
    },
    get client() {
      return client!;
    },
    get clientConfig() {
      return {
        apiUrl: stub!.apiUrl,
        clientId: CLIENT.client_id,
        clientSecret: CLIENT.client_secret,
        redisUrl: redis.url,
        keyPrefix: redis.prefix,
      };
    },
    async newLedger() {
      const schema = db.newSchema(`ledger${++ledgers}`);
      await migrate(db.sql, { schema, dir: LEDGER_MIGRATIONS });
      return {
        schema,
        erp: createErp({ kind: 'ledger', sql: db.sql, schema }),
        write: new LedgerChartWriter(db.sql, schema),
        admin: new LedgerAdmin(db.sql, schema),
      };
    },
    async newConnection({ active = true } = {}) {
      if (active) await client!.connection.unlink();
      const connection = await client!.connection.create({
        remote_provider_name: 'Ledger',
        is_active: active,
      });
      return connection.id;
    },
    mirror(ledger, connectionId, mirrorOptions = {}, over = {}) {
      return mirrorChart(
        { sql: db.sql, erp: ledger.erp, platform: client!, connectionId, log: silentLogger, ...over },
        mirrorOptions,
      );
    },
    control,
  };
}
