import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { DEFAULT_CLIENT } from '@ledgersync/stub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/infra/index.ts';
import { postWebhook, type StubWebhooks, sign, waitFor } from '../integration/support.ts';
import { startWorkerProcess, type WorkerProcess } from '../integration/worker-process.ts';
import { useSyncWorld } from '../support/sync-world.ts';
import { uniqueName } from '../support/unique.ts';
import { useOwnRedis } from './redis-server.ts';

/**
 * docs/platform.md G28 and G29 under a real `ledgersync worker`, with a Redis that keeps nothing
 * across a restart (no append-only file, no snapshots). A sync-button press is delivered while
 * Redis is down: the press is committed to PostgreSQL and the delivery answered 503, and the
 * platform's redelivery (F21) never comes. Redis starts again empty. The worker's periodic check
 * finds the press open with no job in Redis, enqueues it, and every requested row is answered
 * with the press's id before the platform's 5-minute window closes.
 */
const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
const redis = useOwnRedis({ extraArgs: ['--appendonly', 'no'] });
const SECRET = `whsec_${randomUUID().replaceAll('-', '')}`;
const PREFIX = uniqueName('ls');
let worker: WorkerProcess | undefined;
let base = '';

beforeAll(async () => {
  await redis.start();
  await world.seed({
    seed: 61,
    transactions: 120,
    reimbursements: 0,
    bills: 0,
    transfers: 0,
    cashbacks: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    vendor_creation_fraction: 0,
  });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  worker = startWorkerProcess(['--no-schedules'], {
    DATABASE_URL: world.db.url,
    DATABASE_SCHEMA: world.db.schema,
    LEDGER_SCHEMA: world.ledgerSchema,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: PREFIX,
    PLATFORM_BASE_URL: world.stub.apiUrl,
    PLATFORM_CLIENT_ID: DEFAULT_CLIENT.client_id,
    PLATFORM_CLIENT_SECRET: DEFAULT_CLIENT.client_secret,
    PLATFORM_CONNECTION_ID: world.connectionId,
    SERVER_HOST: '127.0.0.1',
    SERVER_PORT: String(port),
    WEBHOOK_SECRET: SECRET,
    LOG_LEVEL: 'info',
  });
  await worker.waitForLine(/ledgersync worker running/);
});

afterAll(async () => {
  if (worker) {
    await mkdir('test-output', { recursive: true });
    await writeFile('test-output/lost-presses-worker.log', worker.output());
  }
  await worker?.stop('SIGKILL');
});

/** A press in the stub, and its event as the platform would deliver it, signed. */
async function pressAndSign(limit: number) {
  const press = await world.control<{ sync_request_id: string; object_ids: string[] }>(
    'POST',
    '/__stub/sync-button',
    { object_type: 'TRANSACTION', limit },
  );
  const id = press.sync_request_id;
  // The stub's own event for the press (the subscription is managed outside this worker, F20).
  const hooks = await world.control<StubWebhooks>('GET', '/__stub/webhooks');
  const body = JSON.stringify(hooks.events.find((e) => e.object.sync_request_id === id));
  return { id, body, signature: sign(body, SECRET), objectIds: press.object_ids };
}

async function answered(id: string) {
  return waitFor(
    async () => {
      const [row] = await world.db.sql<{ state: string; watchdog_failed: number }[]>`
        select state, watchdog_failed from sync_requests where sync_request_id = ${id}`;
      return row?.state === 'ANSWERED' ? row : null;
    },
    { what: 'the press to be answered', timeoutMs: 60_000 },
  );
}

describe('a sync-button press whose job a Redis restart lost', () => {
  it('docs/platform.md G29: the running worker enqueues it again once Redis is back empty, and answers every row before the deadline', async () => {
    // A first press answered as usual: the worker's queues are up and in use before Redis dies
    // (a BullMQ queue whose first connection fails as it starts does not recover).
    const first = await pressAndSign(20);
    expect((await postWebhook(`${base}/webhooks`, first.body, first.signature)).status).toBe(200);
    await answered(first.id);

    const { id, body, signature, objectIds } = await pressAndSign(50);
    await redis.kill();
    const answer = await postWebhook(`${base}/webhooks`, body, signature);
    expect(answer.status).toBe(503);
    const [recorded] = await world.db.sql<{ state: string }[]>`
      select state from sync_requests where sync_request_id = ${id}`;
    expect(recorded?.state).toBe('OPEN');

    await redis.start();
    expect((await answered(id)).watchdog_failed).toBe(0);
    expect(worker!.output()).toMatch(/had lost its queued jobs/);

    const marks = (
      await world.control<{ marks: { object_id: string; result: string; sync_request_id: string | null }[] }>(
        'GET',
        '/__stub/effects?include=marks&limit=100000',
      )
    ).marks.filter((m) => m.sync_request_id === id && m.result !== 'REJECTED');
    expect(new Set(marks.map((m) => m.object_id))).toEqual(new Set(objectIds));
    const clock = await world.control<{ expired_rows: number }>('POST', '/__stub/clock', {
      advance_ms: 301_000,
    });
    expect(clock.expired_rows).toBe(0);
    expect(worker!.child.exitCode).toBeNull();
  }, 120_000);
});
