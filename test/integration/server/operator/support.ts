import { DEFAULT_CLIENT } from '@ledgersync/stub';
import { afterAll, beforeAll } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../../../jobs/worker.ts';
import type { AppContext } from '../../../../src/app/index.ts';
import { loadConfig } from '../../../../src/config.ts';
import { silentLogger } from '../../../../src/log.ts';
import { createMetrics, type Metrics } from '../../../../src/operations/index.ts';
import { createPlatformClient, type PlatformClient } from '../../../../src/platform/index.ts';
import { createQueues, type Queues } from '../../../../src/queue/index.ts';
import { type RunningServer, startServer } from '../../../../src/server/server.ts';
import { OBJECT_KINDS, syncPlatformFrom } from '../../../../src/sync/objects/index.ts';
import { type TestRedis, useTestRedis } from '../../../support/redis.ts';
import { type SyncWorld, useSyncWorld } from '../../../support/sync-world.ts';

export const OPERATOR_TOKEN = 'op-token-for-tests-0123456789abcdef';
export const WEBHOOK_SECRET = 'whsec_operator_tests_0123456789';

/** A bookkeeper's failure whose message tries to inject markup: the page must show it as text. */
export const HOSTILE_MESSAGE =
  'Action needed: vendor "<img src=x onerror=alert(1)>" & <script>document.title=\'pwned\'</script> is unknown.';
export const HOSTILE_OBJECT = 'txn-hostile-message';

export interface OperatorWorld {
  world: SyncWorld;
  readonly metrics: Metrics;
  readonly queues: Queues;
  /** The worker's server, as `npx ledgersync worker` starts it (operator surface on). */
  readonly server: RunningServer;
  /** Runs what the worker runs for a sync: a sync-button press, then every kind's object sync. */
  syncThroughJobs(): Promise<void>;
}

async function finished(job: { getState(): Promise<string> }, what: string) {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const state = await job.getState();
    if (state === 'completed') return;
    if (state === 'failed') throw new Error(`${what} failed`);
    if (Date.now() > deadline) throw new Error(`${what} did not finish (state ${state})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Parts {
  metrics: Metrics;
  platform: PlatformClient;
  queues: Queues;
  workers: RunningWorkers;
  server: RunningServer;
}

/** The worker's view of the world, its platform client observed by the metrics. */
function observedApp(world: SyncWorld, redis: TestRedis, metrics: Metrics): AppContext {
  const platform = createPlatformClient({
    baseUrl: world.stub.apiUrl,
    clientId: DEFAULT_CLIENT.client_id,
    clientSecret: DEFAULT_CLIENT.client_secret,
    scopes:
      'accounting:read accounting:write transactions:read reimbursements:read transfers:read cashbacks:read bills:read entities:read',
    redis: redis.connect(),
    keyPrefix: `${redis.prefix}:platform`,
    retry: { baseMs: 20, capMs: 200 },
    observe: metrics.observePlatform,
  });
  return {
    config: loadConfig({ NODE_ENV: 'test', QUEUE_PREFIX: redis.prefix }),
    log: silentLogger,
    sql: world.db.sql,
    redis: redis.connect({ bullmq: true }),
    platform,
    syncPlatform: syncPlatformFrom(platform),
    erp: world.erp,
    close: async () => undefined,
  };
}

/** Metrics, workers and server wired as src/commands/worker.ts wires them. */
async function startParts(
  world: SyncWorld,
  redis: TestRedis,
  options: { host: string; token?: string },
): Promise<Parts> {
  const metrics = createMetrics();
  const app = observedApp(world, redis, metrics);
  // No cache: each scrape in a test sees the database as it is.
  const { sql } = world.db;
  const { connectionId } = world;
  metrics.watchDatabase({ sql, connectionId, log: silentLogger, cacheMs: 0, ledgerCacheMs: 0 });
  const connection = { redisUrl: redis.url, prefix: redis.prefix };
  const queues = createQueues(connection);
  const workers = startWorkers(app, {
    connection,
    queues,
    queuesToWork: ['objectSync', 'syncButton'],
    observe: metrics.observeJob,
  });
  const server = await startServer(
    {
      sql,
      redis: app.redis,
      queues,
      connectionId,
      log: silentLogger,
      secrets: async () => [WEBHOOK_SECRET],
      operator: { token: options.token, metrics },
    },
    { host: options.host, port: 0 },
  );
  return { metrics, platform: app.platform, queues, workers, server };
}

/** What the worker runs for a sync: a sync-button press, then every kind's object sync. */
async function syncThroughJobs(world: SyncWorld, queues: Queues): Promise<void> {
  await world.seed({ seed: 23, transactions: 120, reimbursements: 20, bills: 30, uncoded_fraction: 0.2 });
  const press = await world.control<{ sync_request_id: string }>('POST', '/__stub/sync-button', {
    object_type: 'TRANSACTION',
    limit: 10,
  });
  const button = await queues.syncButton.add('press', {
    connectionId: world.connectionId,
    objectType: 'TRANSACTION',
    syncRequestId: press.sync_request_id,
    deadline: new Date(Date.now() + 240_000).toISOString(),
  });
  await finished(button, 'the sync-button job');
  for (const kind of OBJECT_KINDS) {
    const job = await queues.objectSync.add('sync', {
      connectionId: world.connectionId,
      kind,
      trigger: 'cli',
    });
    await finished(job, `the ${kind} sync`);
  }
  // The newest failure a bookkeeper must fix, with a message that tries to inject markup.
  await world.db.sql`
    insert into sync_ledger (connection_id, object_id, sync_type, state, outcome, error_category, error_message)
    values (${world.connectionId}, ${HOSTILE_OBJECT}, 'TRANSACTION_SYNC', 'REPORTED', 'failure',
            'user_actionable', ${HOSTILE_MESSAGE})`;
}

/**
 * A seeded world (stub + ledger + Postgres + Redis) with the worker's parts started in-process as
 * the worker command wires them: one metrics registry fed by the platform client's observer and
 * the workers' job events, and the HTTP server with the operator surface, on `host`.
 */
export function useOperatorWorld(options: { host: string; token?: string }): OperatorWorld {
  const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
  const redis = useTestRedis();
  let parts: Parts | undefined;
  beforeAll(async () => {
    parts = await startParts(world, redis, options);
  });
  afterAll(async () => {
    await parts?.server.close();
    await parts?.workers.close(5_000);
    await parts?.queues.close();
    await parts?.platform.close();
  });
  return {
    world,
    get metrics() {
      return parts!.metrics;
    },
    get queues() {
      return parts!.queues;
    },
    get server() {
      return parts!.server;
    },
    syncThroughJobs: () => syncThroughJobs(world, parts!.queues),
  };
}

/** The sum of a metric's series whose labels include all of `labels`. */
export function sumOf(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    if (wanted.every((w) => (match[2] ?? '').includes(w))) total += Number(match[3]);
  }
  return total;
}
