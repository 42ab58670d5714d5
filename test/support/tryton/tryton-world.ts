import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { createErp, type ErpAdapter } from '../../../src/erp/index.ts';
import type { TrytonConnection } from '../../../src/erp/tryton/rpc.ts';
import { silentLogger } from '../../../src/log.ts';
import { createPlatformClient, type PlatformClient } from '../../../src/platform/client.ts';
import { DEFAULT_CLIENT, type RunningStub, startStub } from '../../../src/stub/index.ts';
import { syncPlatformFrom } from '../../../src/sync/objects/platform-adapter.ts';
import type { SyncPlatform } from '../../../src/sync/objects/platform-port.ts';
import { type TestDatabase, useTestDatabase } from '../db.ts';
import { type TestRedis, useTestRedis } from '../redis.ts';
import { stubControl } from '../stub-control.ts';
import { readTrytonBooks, type TrytonBooks } from './fixture.ts';
import { useTryton } from './use-tryton.ts';

/**
 * The whole system with Tryton as the ERP, for one test file: the worker's state in a schema of
 * the test PostgreSQL, a Tryton database with the test books, the platform stub over real HTTP,
 * the real platform client and an active connection. `seed` codes the stub's objects with the
 * Tryton ids the adapter reports (accounts, Department options, suppliers, taxes), and opens the
 * platform's USD entities in the Tryton company (an identifier on the company's party).
 */

export interface TrytonSyncWorld {
  db: TestDatabase;
  redis: TestRedis;
  readonly tryton: TrytonConnection;
  readonly books: TrytonBooks;
  readonly stub: RunningStub;
  readonly platform: PlatformClient;
  readonly syncPlatform: SyncPlatform;
  readonly erp: ErpAdapter;
  readonly connectionId: string;
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  seed(body: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const CompanyParty = z.object({ party: z.number().int() });

export function useTrytonSyncWorld(): TrytonSyncWorld {
  const db = useTestDatabase();
  const redis = useTestRedis();
  const tryton = useTryton();
  let stub: RunningStub | undefined;
  let platform: PlatformClient | undefined;
  let erp: ErpAdapter | undefined;
  let books: TrytonBooks | undefined;
  let connectionId = '';

  const control = stubControl(() => stub!.url);

  beforeAll(async () => {
    books = await readTrytonBooks(tryton.connection);
    stub = await startStub({ rateLimit: false });
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
    erp = createErp({ kind: 'tryton', ...tryton.connection }, { log: silentLogger });
    const connection = await platform.connection.create({
      remote_provider_name: 'Tryton',
      is_active: true,
      settings: { transaction_accounting_vendor_creation_on_sync_enabled: true },
    });
    connectionId = connection.id;
  }, 900_000);

  afterAll(async () => {
    await erp?.close();
    await platform?.close();
    await stub?.close();
  });

  return {
    db,
    redis,
    get tryton() {
      return tryton.connection;
    },
    get books() {
      return books!;
    },
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
      const b = books!;
      const chart = {
        gl_accounts: ['6020', '6040', '6060', '6080'].map(b.accountId),
        vendors: b.supplierIds,
        tax_codes: Object.values(b.taxIds),
        fields: [{ id: b.department.id, options: b.department.options }],
      };
      const seeded = await control<Record<string, unknown>>('POST', '/__stub/seed', { chart, ...body });
      const entities = await platform!.entities.list().collect();
      const usd = entities.values.filter((e) => e.currency === 'USD').map((e) => e.id);
      const [company] = await b.models.searchRead('company.company', [], ['party'], CompanyParty);
      await b.models.write('party.party', [company!.party], {
        identifiers: [['create', usd.map((code) => ({ code }))]],
      });
      return seeded;
    },
  };
}
