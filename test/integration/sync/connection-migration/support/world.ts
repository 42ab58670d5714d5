import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CLIENT } from '@ledgersync/stub';
import { afterAll, beforeAll, inject } from 'vitest';
import { silentLogger } from '../../../../../src/log.ts';
import { createPlatformClient, type PlatformClient } from '../../../../../src/platform/index.ts';
import { prepareMigration } from '../../../../../src/sync/connection-migration/index.ts';
import type {
  MigrationDeps,
  PrepareOptions,
  PrepareResult,
} from '../../../../../src/sync/connection-migration/types.ts';
import { mirrorChart } from '../../../../../src/sync/mirror/index.ts';
import { syncPlatformFrom } from '../../../../../src/sync/objects/index.ts';
import { useTestRedis } from '../../../../support/redis.ts';
import { type SyncWorld, useSyncWorld, worldEnv } from '../../../../support/sync-world.ts';
import type { StubChart } from '../../mirror/support/compare.ts';

export interface Arrival {
  seq: number;
  method: string;
  route: string;
  status: number;
}

export interface MigrationWorld {
  world: SyncWorld;
  /** A client of the same stub whose own rate budget does not slow the tests down. */
  readonly platform: PlatformClient;
  readonly backupDir: string;
  deps(): MigrationDeps;
  /**
   * A clean platform and worker state: the stub reset, a new active API connection holding the
   * ledger's chart (as a worker that has been mirroring would have it), the worker's tables empty.
   */
  fresh(settings?: Record<string, boolean>): Promise<string>;
  prepare(options?: Partial<PrepareOptions>, over?: Partial<MigrationDeps>): Promise<PrepareResult>;
  /** Mirrors the ledger's chart into the connection with this file's client. */
  mirror(connectionId: string): ReturnType<typeof mirrorChart>;
  chart(connectionId: string): Promise<StubChart>;
  arrivalMark(): Promise<number>;
  arrivalsSince(mark: number): Promise<Arrival[]>;
  /** Environment for the real binary, pointed at this file's stub, database and Redis. */
  cliEnv(extra?: Record<string, string>): Record<string, string>;
}

export const PROVIDER = 'New ERP (API)';

export function useMigrationWorld(): MigrationWorld {
  const world = useSyncWorld();
  const redis = useTestRedis();
  let backupDir = '';
  let platform: PlatformClient | undefined;
  beforeAll(async () => {
    backupDir = await mkdtemp(join(tmpdir(), 'ls-migration-'));
    platform = createPlatformClient({
      baseUrl: world.stub.apiUrl,
      clientId: DEFAULT_CLIENT.client_id,
      clientSecret: DEFAULT_CLIENT.client_secret,
      scopes:
        'accounting:read accounting:write transactions:read reimbursements:read transfers:read cashbacks:read bills:read entities:read',
      redis: redis.url,
      keyPrefix: redis.prefix,
      limiter: { max: 100_000 },
      retry: { baseMs: 20, capMs: 200 },
    });
  });
  afterAll(async () => {
    await platform?.close();
    if (backupDir) await rm(backupDir, { recursive: true, force: true });
  });

  const mirror = (connectionId: string) =>
    mirrorChart(
      {
        sql: world.db.sql,
        erp: world.erp,
        platform: platform!,
        connectionId,
        log: silentLogger,
      },
      {},
    );

  const deps = (): MigrationDeps => ({
    sql: world.db.sql,
    erp: world.erp,
    platform: platform!,
    syncPlatform: syncPlatformFrom(platform!),
    log: silentLogger,
  });

  return {
    world,
    get platform() {
      return platform!;
    },
    get backupDir() {
      return backupDir;
    },
    deps,
    async fresh(settings = {}) {
      await world.control('POST', '/__stub/reset');
      await world.db
        .sql`truncate connection_migrations, chart_backups, id_map, connections, sync_ledger, result_batches, runs
        restart identity cascade`;
      const active = await platform!.connection.create({
        remote_provider_name: 'Built-in ledger',
        is_active: true,
        settings,
      });
      const mirrored = await mirror(active.id);
      const failed = Object.values(mirrored.kinds).flatMap((k) => k.failed);
      if (failed.length > 0)
        throw new Error(`mirror of the active connection failed: ${JSON.stringify(failed)}`);
      return active.id;
    },
    mirror,
    prepare(options = {}, over = {}) {
      return prepareMigration({ ...deps(), ...over }, { provider: PROVIDER, backupDir, ...options });
    },
    chart(connectionId) {
      return world.control<StubChart>('GET', `/__stub/chart?accounting_connection_id=${connectionId}`);
    },
    async arrivalMark() {
      const body = await world.control<{ next: { arrivals_since: number } }>(
        'GET',
        `/__stub/effects?include=arrivals&arrivals_since=${Number.MAX_SAFE_INTEGER}&limit=1`,
      );
      return body.next.arrivals_since;
    },
    async arrivalsSince(mark) {
      const body = await world.control<{ arrivals: Arrival[] }>(
        'GET',
        `/__stub/effects?include=arrivals&arrivals_since=${mark}&limit=100000`,
      );
      return body.arrivals;
    },
    cliEnv(extra = {}) {
      return {
        ...worldEnv(world, { url: inject('redisUrl'), prefix: `${world.db.schema}q` }),
        RATE_LIMIT_MAX: '100000',
        ...extra,
      };
    },
  };
}

/** The writes among arrivals (not /token): what "changes nothing" means on the platform. */
export function writesOf(arrivals: readonly Arrival[]): Arrival[] {
  return arrivals.filter(
    (a) => ['POST', 'PATCH', 'PUT', 'DELETE'].includes(a.method) && a.route !== '/token',
  );
}

/** A seed of ready card transactions only, each coded and with no vendor to create. */
export const transactionSeed = (seed: number, transactions: number) => ({
  seed,
  transactions,
  reimbursements: 0,
  transfers: 0,
  cashbacks: 0,
  bills: 0,
  ready_fraction: 1,
  sync_disabled_fraction: 0,
  vendor_creation_fraction: 0,
  uncoded_fraction: 0,
  unknown_coding_fraction: 0,
});
