import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../src/infra/index.ts';
import { useTestRedis } from '../../support/redis.ts';
import { useSyncWorld, worldEnv } from '../../support/sync-world.ts';
import { deliveriesSettled, waitFor } from '../support.ts';
import { alive, childPids, startWorkerProcess, type WorkerProcess } from '../worker-process.ts';

/**
 * `npx ledgersync worker` as a real process against an in-process stub, a real Postgres and
 * Redis: it registers its webhook (F20), answers a sync-button press (docs/platform.md G28) and stops
 * gracefully on SIGTERM.
 */
const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
const redis = useTestRedis();
let worker: WorkerProcess | undefined;
let queue: Queue;

beforeAll(async () => {
  queue = new Queue('object-sync', { connection: { url: redis.url }, prefix: redis.prefix });
  await world.seed({ seed: 41, transactions: 120, reimbursements: 0, bills: 10, transfers: 0, cashbacks: 0 });
});

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await queue?.close();
});

function env(port: number): Record<string, string> {
  return {
    ...worldEnv(world, redis),
    PLATFORM_CONNECTION_ID: world.connectionId,
    SERVER_HOST: '127.0.0.1',
    SERVER_PORT: String(port),
    WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${port}/webhooks`,
    // No scheduled run during this test: the work comes from the webhook and the test.
    SCHEDULE_OBJECT_SYNC_WEEKDAYS: '0 0 1 1 *',
    SCHEDULE_OBJECT_SYNC_WEEKENDS: '0 0 1 1 *',
    SCHEDULE_COA_MIRROR: '0 0 1 1 *',
  };
}

describe('npx ledgersync worker', () => {
  it('docs/platform.md F20 + G28: registers its webhook and answers a sync-button press; SIGTERM exits 0 with no child left', async () => {
    const port = await freePort();
    worker = startWorkerProcess([], env(port));
    const [, url] = await worker.waitForLine(/ledgersync worker running: workers, schedules, server (\S+)/);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ postgres: 'ok', redis: 'ok' });

    await waitFor(
      async () => {
        const [row] = await world.db.sql<{ status: string }[]>`
          select status from webhook_subscriptions where endpoint_url = ${`${url}/webhooks`}`;
        return row?.status === 'active';
      },
      { what: 'the webhook subscription to be verified' },
    );

    const press = await world.control<{ sync_request_id: string; object_ids: string[] }>(
      'POST',
      '/__stub/sync-button',
      { object_type: 'TRANSACTION', limit: 40 },
    );
    await deliveriesSettled(world);
    await waitFor(
      async () => {
        const [row] = await world.db.sql<{ state: string }[]>`
          select state from sync_requests where sync_request_id = ${press.sync_request_id}`;
        return row?.state === 'ANSWERED';
      },
      { what: 'the press to be answered', timeoutMs: 30_000 },
    );

    // A job taken before SIGTERM ends completed: in-flight work is finished, not dropped.
    const job = await queue.add('sync', {
      connectionId: world.connectionId,
      kind: 'transactions',
      trigger: 'cli',
    });
    await waitFor(async () => (await job.getState()) !== 'waiting', { what: 'the job to start' });
    const children = await childPids(worker.pid);
    expect(await worker.stop('SIGTERM')).toBe(0);
    expect(worker.output()).toContain('ledgersync worker stopped');
    expect(await job.getState()).toBe('completed');
    expect(children.filter(alive)).toEqual([]);
    expect(alive(worker.pid)).toBe(false);
  }, 60_000);
});
