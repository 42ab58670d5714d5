import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_CLIENT } from '@ledgersync/stub';
import { freePort } from '../../src/infra/index.ts';
import type { RateLimiterOptions } from '../../src/platform/index.ts';
import type { BenchContext } from './context.ts';
import { REPO_ROOT, spawnTs, type TsChild } from './spawn-ts.ts';
import type { World } from './world.ts';

/** The product's sync-button path: webhook receiver (src/server), queue and job (jobs/sync-button.ts). */
export function productResponderPresent(): boolean {
  return ['src/commands/worker.ts', 'src/server/server.ts', 'jobs/sync-button.ts'].every((f) =>
    existsSync(join(REPO_ROOT, f)),
  );
}

export interface ProductWorker {
  child: TsChild;
  /** The Redis key prefix of its platform client: processes sharing it share one rate budget. */
  platformPrefix: string;
  webhookUrl: string;
  stop(): Promise<void>;
}

/**
 * `ledgersync worker --no-schedules` against the world: its webhook receiver subscribed to the
 * stub (F20) and its job workers, on the world's schemas, with the platform client's budget under
 * `<world prefix>:platform`. Resolves once the stub shows the subscription active.
 */
export async function startProductWorker(
  ctx: BenchContext,
  world: World,
  limiter?: Partial<RateLimiterOptions>,
): Promise<ProductWorker> {
  const port = await freePort();
  const webhookUrl = `http://127.0.0.1:${port}/webhooks`;
  const env: Record<string, string> = {
    DATABASE_URL: ctx.databaseUrl,
    DATABASE_SCHEMA: world.schema,
    REDIS_URL: ctx.redisUrl,
    QUEUE_PREFIX: world.redisPrefix,
    ERP: 'ledger',
    LEDGER_SCHEMA: world.ledgerSchema,
    PLATFORM_BASE_URL: world.stub.apiUrl,
    PLATFORM_CLIENT_ID: DEFAULT_CLIENT.client_id,
    PLATFORM_CLIENT_SECRET: DEFAULT_CLIENT.client_secret,
    PLATFORM_CONNECTION_ID: world.connectionId,
    SERVER_HOST: '127.0.0.1',
    SERVER_PORT: String(port),
    WEBHOOK_PUBLIC_URL: webhookUrl,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ...(limiter?.max ? { RATE_LIMIT_MAX: String(limiter.max) } : {}),
    ...(limiter?.windowMs ? { RATE_LIMIT_WINDOW_MS: String(limiter.windowMs) } : {}),
    ...(limiter?.margin !== undefined ? { RATE_LIMIT_MARGIN: String(limiter.margin) } : {}),
  };
  const child = spawnTs('src/cli.ts', { args: ['worker', '--no-schedules'], env });
  const worker = {
    child,
    platformPrefix: `${world.redisPrefix}:platform`,
    webhookUrl,
    stop: () => child.stop(30_000),
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.process.exitCode !== null)
      throw new Error(`ledgersync worker exited with ${child.process.exitCode}:\n${child.stderrTail()}`);
    const hooks = await world.stub.control<{ subscriptions: { endpoint_url: string; status: string }[] }>(
      'GET',
      '/__stub/webhooks',
    );
    if (hooks.subscriptions.some((s) => s.endpoint_url === webhookUrl && s.status === 'active'))
      return worker;
    if (Date.now() > deadline) {
      await worker.stop();
      throw new Error(`the worker's webhook subscription was not active within 60 s:\n${child.stderrTail()}`);
    }
    await sleep(200);
  }
}

/** When each sync_requested event reached the worker's receiver (its webhook_events table). */
export async function productArrivals(ctx: BenchContext, world: World): Promise<Map<string, number>> {
  const hooks = await world.stub.control<{
    events: { id: string; type: string; object: { sync_request_id?: string } }[];
  }>('GET', '/__stub/webhooks');
  const received = await ctx.admin.unsafe<{ event_id: string; received_at: Date }[]>(
    `select event_id, received_at from "${world.schema}".webhook_events`,
  );
  const at = new Map(received.map((r) => [r.event_id, r.received_at.getTime()]));
  const arrivals = new Map<string, number>();
  for (const e of hooks.events) {
    const requestId = e.object.sync_request_id;
    const t = at.get(e.id);
    if (e.type.endsWith('.sync_requested') && requestId && t !== undefined) arrivals.set(requestId, t);
  }
  return arrivals;
}
