import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { DEFAULT_CLIENT } from '@ledgersync/stub';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/infra/index.ts';
import { KIND_SPECS } from '../../src/sync/objects/index.ts';
import { postWebhook, sign, waitFor } from '../integration/support.ts';
import { startWorkerProcess, type WorkerProcess } from '../integration/worker-process.ts';
import { runCli } from '../support/cli.ts';
import { CLEAN_HISTORY, checkHistory } from '../support/history-check.ts';
import { useSyncWorld } from '../support/sync-world.ts';
import { uniqueName } from '../support/unique.ts';
import { useOwnRedis } from './redis-server.ts';

/**
 * Redis killed (SIGKILL) and started again on the same port, under a real `ledgersync worker`:
 *
 * 1. mid-sync: the worker stays up, logs one line when Redis goes and one when it is back (not a
 *    stack per reconnect attempt), finishes the run and takes new jobs once Redis is back;
 * 2. with Redis down, signed webhook deliveries are recorded and committed, then answered 503
 *    because their enqueue fails (docs/platform.md F21: the platform redelivers). No PostgreSQL
 *    session is left `idle in transaction`, and /readyz says PostgreSQL is fine and Redis is not.
 *    Once Redis is back a redelivery of the same event id is enqueued (not dropped as a
 *    duplicate), and its run syncs the objects.
 *
 * Then a clean `sync all` and the history check (read from the stub and the ERP): nothing lost,
 * nothing marked twice, books equal to platform marks.
 */
const world = useSyncWorld({ stub: { latencyMs: 40 } });
const redis = useOwnRedis();
const SECRET = `whsec_${randomUUID().replaceAll('-', '')}`;
const APP_NAME = uniqueName('lsredis');
const PREFIX = uniqueName('ls');
/** A stack trace line, or ioredis's own print of an error nobody listened to. */
const STACK = /\n\s+at .+:\d+:\d+|\\n\s+at .+:\d+:\d+|\[ioredis\] Unhandled error event/;

let worker: WorkerProcess | undefined;
let base = '';
let queue: Queue;
let readyAtStart = new Set<string>();

function event(type: string, objectId: string) {
  const body = JSON.stringify({
    id: randomUUID(),
    type,
    created_at: new Date().toISOString(),
    business_id: 'b',
    object: { id: objectId },
  });
  return { body, signature: sign(body, SECRET), id: JSON.parse(body).id as string };
}

async function deliver(e: { body: string; signature: string }) {
  return postWebhook(`${base}/webhooks`, e.body, e.signature);
}

async function readyObjects(): Promise<Set<string>> {
  const ready = new Set<string>();
  const o = world.platform.objects;
  for (const listing of [
    o.ready(KIND_SPECS.transactions.list),
    o.ready(KIND_SPECS.reimbursements.list),
    o.ready(KIND_SPECS.bills.list),
  ]) {
    for await (const item of listing) if (item.ok) ready.add(item.value.id);
  }
  return ready;
}

/** Runs of the worker's object syncs, from the worker's own `runs` table. */
async function runs(kind: string) {
  return world.db.sql<{ id: string; status: string; started_at: Date }[]>`
    select id::text, status, started_at from runs where kind = ${kind} order by id`;
}

async function idleInTransaction(): Promise<number> {
  const [row] = await world.db.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where application_name = ${APP_NAME} and state like 'idle in transaction%'
      and state_change < clock_timestamp() - interval '1 second'`;
  return row?.n ?? 0;
}

beforeAll(async () => {
  await redis.start();
  queue = new Queue('object-sync', {
    connection: { url: redis.url, enableOfflineQueue: false, retryStrategy: () => 200 },
    prefix: PREFIX,
  });
  queue.on('error', () => undefined);
  await world.seed({
    seed: 83,
    transactions: 600,
    reimbursements: 30,
    bills: 30,
    transfers: 0,
    cashbacks: 0,
  });
  readyAtStart = await readyObjects();
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
    PGAPPNAME: APP_NAME,
  });
  await worker.waitForLine(/ledgersync worker running/);
});

afterAll(async () => {
  // The worker's log, for a reader of a failure (test-output/ is not committed).
  if (worker) {
    await mkdir('test-output', { recursive: true });
    await writeFile('test-output/redis-restart-worker.log', worker.output());
  }
  await worker?.stop('SIGKILL');
  await queue?.close().catch(() => undefined);
});

describe('Redis killed and restarted under a running worker', () => {
  it('mid-sync: the worker stays up, logs one line per outage, and finishes the run once Redis is back', async () => {
    expect(readyAtStart.size).toBeGreaterThan(300);
    const started = await deliver(event('transactions.ready_to_sync', 'any'));
    expect(started).toEqual({ status: 200, body: { status: 'accepted', action: 'sync transactions' } });
    await waitFor(
      async () => {
        const [job] = await queue.getJobs(['active']);
        return ((job?.progress as { posted?: number } | undefined)?.posted ?? 0) > 0;
      },
      { what: 'the transactions run to be under way', timeoutMs: 30_000 },
    );
    await redis.kill();
    const killedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await redis.start();
    const restartedAt = Date.now();

    await waitFor(async () => (await runs('transactions')).some((r) => r.status === 'succeeded'), {
      what: 'the interrupted run to finish',
      timeoutMs: 60_000,
    });
    const finishedAt = Date.now();
    // One run, begun before the kill, carried on through the outage (no second run needed).
    const done = await runs('transactions');
    expect(done.map((r) => r.status)).toEqual(['succeeded']);
    expect(done[0]!.started_at.getTime()).toBeLessThan(killedAt);
    expect(worker!.child.exitCode).toBeNull();

    // New work is taken once Redis is back.
    const after = await deliver(event('reimbursements.ready_to_sync', 'any'));
    expect(after.status).toBe(200);
    await waitFor(async () => (await runs('reimbursements')).some((r) => r.status === 'succeeded'), {
      what: 'a run enqueued after the restart',
      timeoutMs: 30_000,
    });

    const output = worker!.output();
    expect(output.match(/Redis is unreachable/g) ?? [], output.slice(-3000)).toHaveLength(1);
    expect(output.match(/Redis is reachable again/g) ?? [], output.slice(-3000)).toHaveLength(1);
    expect(output).not.toMatch(STACK);
    console.info(
      `Redis down ${restartedAt - killedAt} ms mid-sync; the run finished ${finishedAt - restartedAt} ms after the restart`,
    );
  }, 120_000);

  it('webhooks with Redis down: committed first, 503, no idle transaction, /readyz says Redis; a redelivery is enqueued', async () => {
    await world.control('POST', '/__stub/objects/transactions', { count: 20, ready: true });
    const deliveries = Array.from({ length: 30 }, (_, i) =>
      event(i % 2 ? 'bills.ready_to_sync' : 'transactions.ready_to_sync', `obj-${i}`),
    );
    await redis.kill();
    const sent = Date.now();
    const answers = await Promise.all(deliveries.map(deliver));
    const answeredIn = Date.now() - sent;
    expect(answers.map((a) => a.status)).toEqual(deliveries.map(() => 503));

    // Every event id is recorded and committed, none enqueued.
    const ids = deliveries.map((d) => d.id);
    const rows = await world.db.sql<{ event_id: string; enqueued_at: Date | null }[]>`
      select event_id, enqueued_at from webhook_events where event_id in ${world.db.sql(ids)}`;
    expect(rows).toHaveLength(30);
    expect(rows.every((r) => r.enqueued_at === null)).toBe(true);

    // Sampled for 2 s: no session of the worker sits idle in a transaction longer than a second.
    const samples: number[] = [];
    for (let i = 0; i < 8; i++) {
      samples.push(await idleInTransaction());
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(samples.every((n) => n === 0)).toBe(true);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ postgres: 'ok', redis: 'unreachable' });

    await redis.start();
    const restartedAt = Date.now();
    await waitFor(async () => (await fetch(`${base}/readyz`)).status === 200, {
      what: '/readyz to see Redis again',
    });
    const readyAfterMs = Date.now() - restartedAt;
    const before = (await runs('transactions')).length;
    // The platform's redelivery (F21: same event id, same body).
    const redelivered = await deliver(deliveries[0]!);
    expect(redelivered).toEqual({ status: 200, body: { status: 'accepted', action: 'sync transactions' } });
    const [row] = await world.db.sql<{ enqueued_at: Date | null }[]>`
      select enqueued_at from webhook_events where event_id = ${deliveries[0]!.id}`;
    expect(row?.enqueued_at).not.toBeNull();
    expect((await deliver(deliveries[0]!)).body).toEqual({ status: 'duplicate' });
    await waitFor(
      async () => (await runs('transactions')).slice(before).some((r) => r.status === 'succeeded'),
      { what: 'the redelivered event to make a run', timeoutMs: 30_000 },
    );
    expect(worker!.child.exitCode).toBeNull();
    const output = worker!.output();
    expect(output.match(/Redis is unreachable/g) ?? []).toHaveLength(2);
    expect(output).not.toMatch(STACK);
    console.info(
      `30 deliveries with Redis down answered 503 in ${answeredIn} ms; /readyz ok ${readyAfterMs} ms after the restart`,
    );

    // A clean run of everything, then the history (from the stub and the ERP, not ledgersync).
    await worker!.stop('SIGTERM');
    const clean = await runCli(['sync', 'all', '--json'], {
      DATABASE_URL: world.db.url,
      DATABASE_SCHEMA: world.db.schema,
      LEDGER_SCHEMA: world.ledgerSchema,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: PREFIX,
      PLATFORM_BASE_URL: world.stub.apiUrl,
      PLATFORM_CLIENT_ID: DEFAULT_CLIENT.client_id,
      PLATFORM_CLIENT_SECRET: DEFAULT_CLIENT.client_secret,
      PLATFORM_CONNECTION_ID: world.connectionId,
    });
    expect([0, 3], clean.stderr.slice(-2000)).toContain(clean.code);
    const report = await checkHistory({
      control: world.control,
      sql: world.db.sql,
      ledgerSchema: world.ledgerSchema,
      readyAtStart,
    });
    expect(report).toEqual(CLEAN_HISTORY);
  }, 120_000);
});
