import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../src/infra/index.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld, worldEnv } from '../../../support/sync-world.ts';
import { startWorkerProcess, type WorkerProcess } from '../../worker-process.ts';
import { OPERATOR_TOKEN, sumOf, WEBHOOK_SECRET } from './support.ts';

/**
 * `npx ledgersync worker` as a real process: the wiring of the operator surface. Its one metrics
 * registry is fed by the platform client, the workers and Postgres; OPERATOR_TOKEN guards it.
 */
const world = useSyncWorld();
const redis = useTestRedis();
let worker: WorkerProcess | undefined;
let queue: Queue;
let url = '';

beforeAll(async () => {
  queue = new Queue('object-sync', { connection: { url: redis.url }, prefix: redis.prefix });
  await world.seed({ seed: 31, transactions: 60, reimbursements: 0, bills: 0, transfers: 0, cashbacks: 0 });
  const port = await freePort();
  worker = startWorkerProcess([], {
    ...worldEnv(world, redis),
    PLATFORM_CONNECTION_ID: world.connectionId,
    SERVER_HOST: '127.0.0.1',
    SERVER_PORT: String(port),
    OPERATOR_TOKEN,
    WEBHOOK_SECRET,
    SCHEDULE_OBJECT_SYNC_WEEKDAYS: '0 0 1 1 *',
    SCHEDULE_OBJECT_SYNC_WEEKENDS: '0 0 1 1 *',
    SCHEDULE_COA_MIRROR: '0 0 1 1 *',
  });
  [, url] = (await worker.waitForLine(/ledgersync worker running: .*server (\S+)/)) as [string, string];
});

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await queue?.close();
});

describe('npx ledgersync worker: operator surface', () => {
  it('serves /metrics, /status and /admin/queues with the token only, and counts a sync', async () => {
    const bearer = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    for (const path of ['/metrics', '/status', '/admin/queues']) {
      expect((await fetch(`${url}${path}`)).status, path).toBe(401);
    }
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    const job = await queue.add('sync', {
      connectionId: world.connectionId,
      kind: 'transactions',
      trigger: 'cli',
    });
    const deadline = Date.now() + 45_000;
    while ((await job.getState()) !== 'completed') {
      if (Date.now() > deadline)
        throw new Error(`the sync job did not complete:\n${worker!.output().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const text = await (await fetch(`${url}/metrics`, { headers: bearer })).text();
    expect(
      sumOf(text, 'ledgersync_platform_requests_total', { route: '/token', status: '200' }),
    ).toBeGreaterThan(0);
    expect(
      sumOf(text, 'ledgersync_platform_requests_total', { method: 'GET', status: '200' }),
    ).toBeGreaterThan(1);
    expect(
      sumOf(text, 'ledgersync_objects_total', { kind: 'transactions', outcome: 'synced' }),
    ).toBeGreaterThan(0);
    expect(
      sumOf(text, 'ledgersync_job_duration_seconds_count', { queue: 'object-sync', status: 'completed' }),
    ).toBe(1);
    expect(
      sumOf(text, 'ledgersync_reported_objects', { kind: 'transactions', result: 'synced' }),
    ).toBeGreaterThan(0);
    expect(text).toMatch(/^ledgersync_outbox_depth\{kind="transactions",stage="frozen"\} 0$/m);
    expect(text).toMatch(/^ledgersync_metrics_database_up 1$/m);
    expect(text).not.toContain(OPERATOR_TOKEN);

    const status = await fetch(`${url}/status`, { headers: bearer });
    expect(status.status).toBe(200);
    expect(await status.text()).toContain(world.connectionId);
    expect((await fetch(`${url}/admin/queues`, { headers: bearer })).status).toBe(200);
    expect(await worker!.stop('SIGTERM')).toBe(0);
    expect(worker!.output()).not.toContain(OPERATOR_TOKEN);
  }, 90_000);
});
