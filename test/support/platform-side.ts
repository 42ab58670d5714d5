import type { SeedRequest } from '@ledgersync/stub';
import { DEFAULT_CLIENT, type RunningStub, type StubOptions, startStub } from '@ledgersync/stub';
import { afterAll, beforeAll } from 'vitest';
import type { ErpAdapter } from '../../src/erp/index.ts';
import type { Entity } from '../../src/platform/index.ts';
import { createPlatformClient, type PlatformClient } from '../../src/platform/index.ts';
import type { SyncPlatform } from '../../src/sync/objects/index.ts';
import { syncPlatformFrom } from '../../src/sync/objects/index.ts';
import type { TestRedis } from './redis.ts';
import { stubControl } from './stub-control.ts';

/** What every sync world holds besides its ERP's books, whichever ERP it runs. */
export interface PlatformSide {
  readonly stub: RunningStub;
  readonly platform: PlatformClient;
  readonly syncPlatform: SyncPlatform;
  readonly erp: ErpAdapter;
  readonly connectionId: string;
  /** Calls a /__stub control route. */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Seeds platform objects coded against the ERP's real chart. */
  seed(body: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** The ids the stub codes seeded objects with: the ERP's own, as its adapter reports them. */
type SeedChart = NonNullable<SeedRequest['chart']>;

export interface PlatformSideOptions {
  redis: TestRedis;
  stub?: StubOptions;
  /** remote_provider_name of the active connection. */
  provider: string;
  settings?: Record<string, boolean>;
  /** Readies the ERP's books; runs first, before the stub starts. */
  prepare(): Promise<void>;
  openErp(): ErpAdapter;
  chart(): Promise<SeedChart>;
  /** Opens the platform's entities in the ERP's books, as the integrator does once per customer. */
  openEntities(entities: Entity[]): Promise<void>;
  /** How long the set-up may take, when the ERP's first set-up is slow. */
  setupTimeoutMs?: number;
}

/**
 * The platform side of a sync world for one test file: the platform stub over real HTTP, the real
 * platform client, an active connection and the ERP the caller opens, all up from beforeAll on.
 * `own` holds the world's ERP side (its books); it is returned with the platform side, and its
 * getters stay getters.
 */
export function usePlatformSide<Own extends object>(
  own: Own,
  options: PlatformSideOptions,
): Own & PlatformSide {
  let stub: RunningStub | undefined;
  let platform: PlatformClient | undefined;
  let erp: ErpAdapter | undefined;
  let connectionId = '';

  const control = stubControl(() => stub!.url);

  beforeAll(async () => {
    await options.prepare();
    stub = await startStub({ rateLimit: false, ...options.stub });
    platform = createPlatformClient({
      baseUrl: stub.apiUrl,
      clientId: DEFAULT_CLIENT.client_id,
      clientSecret: DEFAULT_CLIENT.client_secret,
      scopes:
        'accounting:read accounting:write transactions:read reimbursements:read transfers:read cashbacks:read bills:read entities:read',
      redis: options.redis.connect(),
      keyPrefix: options.redis.prefix,
      retry: { baseMs: 20, capMs: 200 },
    });
    erp = options.openErp();
    const connection = await platform.connection.create({
      remote_provider_name: options.provider,
      is_active: true,
      settings: { transaction_accounting_vendor_creation_on_sync_enabled: true, ...options.settings },
    });
    connectionId = connection.id;
  }, options.setupTimeoutMs);

  afterAll(async () => {
    await erp?.close();
    await platform?.close();
    await stub?.close();
  });

  const side: PlatformSide = {
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
      const chart = await options.chart();
      const seeded = await control<Record<string, unknown>>('POST', '/__stub/seed', { chart, ...body });
      const entities = await platform!.entities.list().collect();
      await options.openEntities(entities.values);
      return seeded;
    },
  };
  return Object.defineProperties(side, Object.getOwnPropertyDescriptors(own)) as Own & PlatformSide;
}
