import type { Command } from 'commander';
import postgres, { type Sql } from 'postgres';
import { enqueueOverdueRuns } from '../../jobs/overdue-runs.ts';
import { type RunningSchedules, schedulesFromConfig, startSchedules } from '../../jobs/schedules.ts';
import { type RunningWorkers, startWorkers } from '../../jobs/worker.ts';
import {
  type AppContext,
  connectionDespiteGrant,
  consentSettingsFrom,
  createAppContext,
  endpointFromConfig,
  reencryptTokens,
} from '../app/index.ts';
import { EXIT } from '../exit-codes.ts';
import { createMetrics, type Metrics, type RunningHeartbeat, startHeartbeat } from '../operations/index.ts';
import { createQueues, type Queues } from '../queue/index.ts';
import {
  keepSubscription,
  listenFailure,
  type RunningServer,
  startServer,
  webhookSecrets,
} from '../server/index.ts';
import { type Runtime, withRuntime } from './runtime.ts';
import { guardStrayRejections } from './stray-rejections.ts';
import { disabledFeatures } from './worker-warnings.ts';

interface WorkerOptions {
  schedules: boolean;
  server: boolean;
  workers: boolean;
}

interface Parts {
  sql?: Sql;
  app?: AppContext;
  queues?: Queues;
  workers?: RunningWorkers;
  schedules?: RunningSchedules;
  server?: RunningServer;
  registration?: Promise<unknown>;
  stopRegistration?: AbortController;
  heartbeat?: RunningHeartbeat;
}

/**
 * Resolves on the first SIGTERM or SIGINT. A long-running command stops on a signal as its normal
 * end, so the runtime's default (cleanups, then exit 128+signal) is replaced here: the worker
 * stops its parts in order and exits 0. A second signal exits at once.
 */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.removeAllListeners(signal);
      process.on(signal, () => {
        if (received) process.exit(EXIT.failed);
        received = true;
        resolve(signal);
      });
    }
  });
}

/** Stops what started, newest first: no new work, then in-flight jobs finish or are released. */
async function stop(parts: Parts): Promise<void> {
  await parts.heartbeat?.stop();
  await parts.schedules?.stop();
  await parts.server?.close();
  parts.stopRegistration?.abort();
  await parts.registration?.catch(() => undefined);
  await parts.workers?.close();
  await parts.queues?.close();
  await parts.app?.close();
  await parts.sql?.end({ timeout: 5 });
}

async function start(runtime: Runtime, options: WorkerOptions, parts: Parts): Promise<string[]> {
  const { config, log, services } = runtime;
  for (const { feature, setting, message } of disabledFeatures(config, options)) {
    log.warn({ feature, setting }, message);
  }
  // One registry for the process: the platform client, the workers and Postgres feed it.
  const metrics = createMetrics();
  // The runtime has applied pending migrations. Up to 5 kinds, 2 button runs and 1 mirror run at
  // once, each writing pages three at a time, so the worker's pool is larger than the commands' 10.
  // (Each run's advisory lock has a connection of its own, outside this pool: src/sync/advisory-lock.ts.)
  parts.sql = postgres(services.databaseUrl, {
    max: 24,
    onnotice: () => {},
    connection: { search_path: config.DATABASE_SCHEMA },
  });
  const app = createAppContext({
    config,
    log,
    sql: parts.sql,
    redisUrl: services.redisUrl,
    endpoint: endpointFromConfig(config),
    observe: metrics.observePlatform,
  });
  parts.app = app;
  // Tokens still under an old TOKEN_ENCRYPTION_KEY move to the current one now, without waiting
  // for a renewal (README, rotating TOKEN_ENCRYPTION_KEY). Counts only, never a value.
  const rekey = await reencryptTokens(app);
  if (rekey) {
    log.info(
      { reencrypted: rekey.reencrypted, needOldKey: rekey.needOldKey },
      `stored platform tokens: ${rekey.reencrypted} re-encrypted with TOKEN_ENCRYPTION_KEY`,
    );
  }
  // A consent the business revoked (or not given yet) leaves the worker up on the connection it
  // knew: schedules pause, status says to reconnect, and /oauth/callback can take the new consent.
  const connectionId = await connectionDespiteGrant(app, config.PLATFORM_CONNECTION_ID);
  metrics.watchDatabase({ sql: app.sql, connectionId, log });
  const connection = { redisUrl: services.redisUrl, prefix: config.QUEUE_PREFIX };
  const queues = createQueues(connection);
  parts.queues = queues;
  metrics.watchQueues({ queues: queues.all(), log });
  const running: string[] = [];
  if (options.workers) {
    parts.workers = startWorkers(app, { connection, queues, observe: metrics.observeJob });
    running.push('workers');
  }
  if (options.schedules) {
    const settings = schedulesFromConfig(config);
    parts.schedules = startSchedules({ settings, queues, connectionId, log });
    // What the schedules would have run while no worker was up runs now, not at the next window.
    await enqueueOverdueRuns({ sql: app.sql, queues, connectionId, settings, log }).catch((error: unknown) =>
      log.warn({ err: error }, 'could not enqueue the overdue runs; the next schedule window runs them'),
    );
    running.push('schedules');
  }
  if (options.server)
    running.push(`server ${await startHttp(parts, app, { queues, connectionId, metrics })}`);
  // `status` and the status page tell from this whether a worker runs, and what it runs.
  parts.heartbeat = startHeartbeat(
    app.redis,
    config.QUEUE_PREFIX,
    {
      queues: parts.workers ? parts.workers.workers.map((w) => w.name) : [],
      schedules: options.schedules
        ? {
            ...schedulesFromConfig(config),
            timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          }
        : null,
      server: options.server,
    },
    log,
  );
  return running;
}

/**
 * The webhook receiver, health routes and the operator surface (status page, metrics, queue
 * dashboard: OPERATOR_TOKEN guards them); registers the subscription when a public URL is set.
 */
async function startHttp(
  parts: Parts,
  app: AppContext,
  { queues, connectionId, metrics }: { queues: Queues; connectionId: string; metrics: Metrics },
): Promise<string> {
  const { config, log } = app;
  const secrets = webhookSecrets(app.sql, config.WEBHOOK_SECRET);
  const operator = { token: config.OPERATOR_TOKEN, metrics };
  const consent =
    config.PLATFORM_GRANT === 'authorization_code'
      ? {
          consent: {
            settings: consentSettingsFrom(config, app.sql),
            exchange: (c: { code: string; redirectUri: string; codeVerifier: string }) =>
              app.platform.exchangeCode(c),
            revoke: (refreshToken: string) => app.platform.revokeRefreshToken(refreshToken),
            log,
          },
        }
      : {};
  const deps = { sql: app.sql, redis: app.redis, queues, connectionId, log, secrets, operator, ...consent };
  const listen = { host: config.SERVER_HOST, port: config.SERVER_PORT };
  // A port in use is a setting to change: one line naming SERVER_PORT (exit 78), not a stack.
  parts.server = await startServer(deps, listen).catch((error: unknown) => {
    throw listenFailure(error, listen);
  });
  // With WEBHOOK_SECRET set, the subscription is managed outside this worker (F20). Otherwise it
  // is checked against the platform's list now and every minute, and registered again if lost.
  if (config.WEBHOOK_PUBLIC_URL && !config.WEBHOOK_SECRET) {
    parts.stopRegistration = new AbortController();
    parts.registration = keepSubscription({
      sql: app.sql,
      platform: app.platform,
      log,
      publicUrl: config.WEBHOOK_PUBLIC_URL,
      signal: parts.stopRegistration.signal,
    }).catch((error: unknown) => log.error({ err: error }, 'webhook subscription could not be registered'));
  }
  return parts.server.url;
}

async function runWorker(runtime: Runtime, options: WorkerOptions): Promise<number> {
  const stopping = stopSignal();
  // A long-running worker outlives a database restart: its jobs meet the outage and are retried.
  guardStrayRejections('worker', runtime.log);
  const parts: Parts = {};
  try {
    // A signal while it starts (Redis or the platform not answering yet) stops it at once too.
    const starting = start(runtime, options, parts);
    const first = await Promise.race([
      starting.then((running) => ({ running })),
      stopping.then((signal) => ({ signal })),
    ]);
    if ('signal' in first) {
      starting.catch(() => undefined);
      runtime.log.info({ signal: first.signal }, 'stopping the worker before it finished starting');
    } else {
      process.stdout.write(
        `ledgersync worker running: ${first.running.join(', ') || 'nothing (all parts off)'}\n`,
      );
      const signal = await stopping;
      runtime.log.info({ signal }, 'stopping the worker');
    }
  } finally {
    await stop(parts);
  }
  process.stdout.write('ledgersync worker stopped\n');
  return EXIT.ok;
}

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the job workers, the cron schedules and the webhook receiver until SIGTERM')
    .option('--no-schedules', 'do not run the cron schedules')
    .option(
      '--no-server',
      'do not run the HTTP server (webhook receiver, /healthz, /readyz, status page, metrics, queue dashboard)',
    )
    .option('--no-workers', 'do not take jobs from the queues')
    .action((options: WorkerOptions) => withRuntime((runtime) => runWorker(runtime, options)));
}
