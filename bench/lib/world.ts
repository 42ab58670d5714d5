import type { SeedRequest } from '@ledgersync/stub';
import { DEFAULT_CLIENT } from '@ledgersync/stub';
import { Redis } from 'ioredis';
import { migrate, WORKER_MIGRATIONS } from '../../db/runner.ts';
import { importPlatformEntities } from '../../src/app/index.ts';
import type { TrytonErpConfig } from '../../src/erp/index.ts';
import { chartSummary, seedLedger } from '../../src/erp/index.ts';
import { createPlatformClient } from '../../src/platform/index.ts';
import type { BenchContext } from './context.ts';
import { type StubProcess, type StubRule, startStubProcess } from './stub-process.ts';
import type { WorkerConfig } from './worker-config.ts';
import { BENCH_SCOPES } from './worker-deps.ts';

/** One scenario's world: its schemas, Redis prefix, stub process and accounting connection. */
export interface World {
  readonly name: string;
  readonly schema: string;
  readonly ledgerSchema: string;
  readonly redisPrefix: string;
  readonly stub: StubProcess;
  readonly connectionId: string;
  readonly rule: StubRule;
  /** A worker child's config for this world. */
  workerConfig(over: Pick<WorkerConfig, 'task'> & Partial<WorkerConfig>): WorkerConfig;
  /** Seeds platform objects coded against the ledger's chart; imports the platform's entities. */
  seed(body: Record<string, unknown>): Promise<SeedSummary>;
  /** Clears the stub's rate window (setup requests must not count against the measurement). */
  resetRateWindow(): Promise<void>;
  /** Number of platform requests the stub has logged so far. */
  arrivalCount(): Promise<number>;
  close(): Promise<void>;
}

interface SeedSummary {
  counts: Record<string, number>;
  elapsed_ms: number;
  [key: string]: unknown;
}

export interface WorldOptions {
  rule: StubRule;
  /** Connection settings (F6), all false unless given. */
  settings?: Record<string, boolean>;
  /** Migrate and seed the built-in ERP with its small chart (default true). */
  ledger?: boolean;
  /**
   * Another ERP than the ledger (scenario 7: Tryton): the ids the stub codes objects with, how
   * the platform's entities get books there, and the worker's ERP settings.
   */
  erp?: {
    chart(): Promise<SeedChart>;
    openEntities(entities: readonly { id: string; currency: string | null }[]): Promise<void>;
    tryton: TrytonErpConfig;
  };
}

/** The ids the stub codes seeded objects with. */
type SeedChart = NonNullable<SeedRequest['chart']>;

/**
 * Fresh schemas (worker + ledger) and a fresh Redis prefix named after the scenario and run,
 * the stub as a separate process, and an active API connection on it.
 */
export async function createWorld(ctx: BenchContext, name: string, options: WorldOptions): Promise<World> {
  const schema = `bench_${name}_${ctx.runId}`;
  const ledgerSchema = `${schema}_ledger`;
  const redisPrefix = `ledgersync-bench:${ctx.runId}:${name}`;
  await migrate(ctx.admin, { schema, dir: WORKER_MIGRATIONS });
  if (options.ledger !== false) await seedLedger(ctx.admin, ledgerSchema, { preset: 'small', seed: 3 });
  const stub = await startStubProcess(options.rule);
  const connection = await stub.control<{ id: string }>('POST', '/__stub/connections', {
    remote_provider_name: 'Built-in ledger',
    connection_type: 'API',
    settings: options.settings ?? {},
  });

  const world: World = {
    name,
    schema,
    ledgerSchema,
    redisPrefix,
    stub,
    connectionId: connection.id,
    rule: options.rule,
    workerConfig(over) {
      return {
        databaseUrl: ctx.databaseUrl,
        redisUrl: ctx.redisUrl,
        redisPrefix,
        schema,
        ledgerSchema,
        apiUrl: stub.apiUrl,
        connectionId: connection.id,
        ...(options.erp ? { tryton: options.erp.tryton } : {}),
        ...over,
      };
    },
    async seed(body) {
      const chart = options.erp ? await options.erp.chart() : await ledgerChart(ctx, ledgerSchema);
      const seeded = await stub.control<SeedSummary>('POST', '/__stub/seed', { chart, ...body });
      const entities = await platformEntities(ctx, world);
      if (options.erp) await options.erp.openEntities(entities);
      else await importPlatformEntities(ctx.admin, world.ledgerSchema, entities);
      return seeded;
    },
    async resetRateWindow() {
      const { rateMax, rateWindowMs } = options.rule;
      await stub.control('PUT', '/__stub/config', {
        rate_limit: rateMax > 0 ? { max: rateMax, window_ms: rateWindowMs } : false,
      });
    },
    async arrivalCount() {
      const effects = await stub.control<{ totals: { arrivals: number } }>(
        'GET',
        '/__stub/effects?include=none',
      );
      return effects.totals.arrivals;
    },
    async close() {
      await stub.stop();
      if (ctx.keep) return;
      await ctx.admin.unsafe(`drop schema if exists "${schema}" cascade`);
      await ctx.admin.unsafe(`drop schema if exists "${ledgerSchema}" cascade`);
      await deleteKeys(ctx.redisUrl, redisPrefix);
    },
  };
  return world;
}

async function ledgerChart(ctx: BenchContext, ledgerSchema: string): Promise<SeedChart> {
  const chart = await chartSummary(ctx.admin, ledgerSchema);
  return {
    gl_accounts: chart.gl_accounts,
    vendors: chart.vendors,
    tax_codes: chart.tax_codes,
    fields: chart.fields.map((f) => ({ id: f.id, options: f.options })),
  };
}

/** The platform's entities, for the ERP to open books for (read with a setup-only Redis prefix). */
async function platformEntities(ctx: BenchContext, world: World) {
  const client = createPlatformClient({
    baseUrl: world.stub.apiUrl,
    clientId: DEFAULT_CLIENT.client_id,
    clientSecret: DEFAULT_CLIENT.client_secret,
    scopes: BENCH_SCOPES,
    redis: ctx.redisUrl,
    keyPrefix: `${world.redisPrefix}:setup`,
  });
  try {
    return (await client.entities.list().collect()).values;
  } finally {
    await client.close();
  }
}

async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
