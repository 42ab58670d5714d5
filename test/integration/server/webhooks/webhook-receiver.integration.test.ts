import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import {
  coalesceId,
  createQueues,
  type Queues,
  syncButtonJobId,
  watchdogJobId,
} from '../../../../src/queue/index.ts';
import { type RunningServer, startServer } from '../../../../src/server/server.ts';
import { ensureSubscription } from '../../../../src/server/webhooks/register-subscription.ts';
import { webhookSecrets } from '../../../../src/server/webhooks/webhook-secrets.ts';
import { leadBounds, SYNC_WINDOW_MS } from '../../../../src/sync/sync-button/index.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';
import { deliveriesSettled, postWebhook, sign } from '../../support.ts';

/**
 * The webhook receiver over real HTTP, fed by the stub's real deliveries (docs/platform.md F20,
 * F21, G12). No workers run here: what matters is what gets enqueued.
 */
const world = useSyncWorld({
  settings: { transaction_sync_button_enabled: true },
  stub: { config: { webhookRetryBaseMs: 5 } },
});
const redis = useTestRedis();
let queues: Queues;
let server: RunningServer;
let endpoint: string;
let secret: string;

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

/** The worker's HTTP side over the test world, adding jobs through `through`. */
function serve(through: Queues, shared = redis.connect()): Promise<RunningServer> {
  return startServer(
    {
      sql: world.db.sql,
      redis: shared,
      queues: through,
      connectionId: world.connectionId,
      log: silentLogger,
      secrets: webhookSecrets(world.db.sql),
    },
    { host: '127.0.0.1', port: 0 },
  );
}

beforeAll(async () => {
  queues = createQueues({ redisUrl: redis.url, prefix: redis.prefix });
  server = await serve(queues);
  endpoint = `${server.url}/webhooks`;
  await world.seed({ seed: 5, transactions: 40, reimbursements: 5, bills: 30 });
});

afterAll(async () => {
  await server?.close();
  await queues?.close();
});

async function waitingIds(): Promise<string[]> {
  const jobs = await queues.objectSync.getJobs(['waiting', 'delayed', 'prioritized']);
  return jobs.map((j) => j.id!).sort();
}

describe('webhook receiver', () => {
  it('F20: registers the subscription, echoes the challenge through /verify and keeps the secret', async () => {
    const result = await ensureSubscription({
      sql: world.db.sql,
      platform: world.platform,
      log: silentLogger,
      publicUrl: endpoint,
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ status: 'active', created: true });
    const hooks = await world.control<{ subscriptions: { id: string; status: string; secret: string }[] }>(
      'GET',
      '/__stub/webhooks',
    );
    const sub = hooks.subscriptions.find(
      (s) => s.id === (result as { subscriptionId: string }).subscriptionId,
    );
    expect(sub?.status).toBe('active');
    const [row] = await world.db.sql<{ secret: string; status: string }[]>`
      select secret, status from webhook_subscriptions where id = ${sub!.id}`;
    expect(row?.status).toBe('active');
    // Compared by hash: a secret never appears in a test message.
    expect(hash(row!.secret)).toBe(hash(sub!.secret));
    secret = row!.secret;
    const again = await ensureSubscription({
      sql: world.db.sql,
      platform: world.platform,
      log: silentLogger,
      publicUrl: endpoint,
    });
    expect(again).toMatchObject({ status: 'active', created: false });
  });

  it('docs/platform.md G12: a burst of 1,000 transactions.ready_to_sync makes one waiting run', async () => {
    const { ids } = await world.control<{ ids: string[] }>('POST', '/__stub/objects/transactions', {
      count: 1000,
      ready: true,
    });
    expect(ids).toHaveLength(1000);
    const hooks = await deliveriesSettled(world, 45_000);
    const burst = new Set(ids);
    const events = hooks.events.filter(
      (e) => e.type === 'transactions.ready_to_sync' && burst.has(e.object.id),
    );
    expect(events).toHaveLength(1000);
    // F21: every event was finally answered 2xx (some may have been retried after a 503).
    const answered = new Set(hooks.deliveries.filter((d) => d.status === 200).map((d) => d.event_id));
    expect(events.every((e) => answered.has(e.id))).toBe(true);
    const [seen] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from webhook_events where type = 'transactions.ready_to_sync'`;
    expect(seen?.n).toBe(1000);
    expect(await waitingIds()).toHaveLength(1);
    const [job] = await queues.objectSync.getJobs(['waiting']);
    expect(job?.data).toEqual({ connectionId: world.connectionId, kind: 'transactions', trigger: 'webhook' });
    expect(
      await queues.objectSync.getDeduplicationJobId(coalesceId(world.connectionId, 'transactions')),
    ).toBe(job?.id);
  }, 60_000);

  it('F21: duplicate and out-of-order deliveries are each acted on once; bills.paid triggers the bill sync', async () => {
    await world.control('PUT', '/__stub/faults', { webhooks: { duplicate_rate: 1, out_of_order: true } });
    try {
      const { ids } = await world.control<{ ids: string[] }>('POST', '/__stub/objects/bills', { count: 10 });
      const open = await world.platform.request({ method: 'GET', path: '/bills?status=OPEN&page_size=5' });
      const bill = (open.body as { data: { id: string }[] }).data[0]!;
      await world.control('POST', `/__stub/bills/${bill.id}/pay`);
      const hooks = await deliveriesSettled(world);
      const recent = hooks.events.filter((e) => e.type.startsWith('bills.'));
      expect(recent.length).toBeGreaterThanOrEqual(ids.length * 3);
      const perEvent = new Map<string, number>();
      for (const d of hooks.deliveries) perEvent.set(d.event_id, (perEvent.get(d.event_id) ?? 0) + 1);
      expect(recent.some((e) => (perEvent.get(e.id) ?? 0) >= 2)).toBe(true);
      const recentIds = new Set(recent.map((e) => e.id));
      const statuses = hooks.deliveries.filter((d) => recentIds.has(d.event_id)).map((d) => d.status);
      expect(statuses.every((status) => status === 200)).toBe(true);
      const rows = await world.db.sql<{ event_id: string }[]>`
        select event_id from webhook_events where type in ('bills.ready_to_sync', 'bills.paid')`;
      expect(new Set(rows.map((r) => r.event_id)).size).toBe(rows.length);
      expect(rows.length).toBe(
        recent.filter((e) => e.type !== 'bills.created' && e.type !== 'bills.approved').length,
      );
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
    const waiting = await queues.objectSync.getJobs(['waiting']);
    expect(waiting.map((j) => j.data.kind).sort()).toEqual(['bills', 'transactions']);
  });

  it('docs/platform.md G28: transactions.sync_requested records the request with its deadline and enqueues the run and the watchdog', async () => {
    const press = await world.control<{ sync_request_id: string; created_at: string; deadline: string }>(
      'POST',
      '/__stub/sync-button',
      { object_type: 'TRANSACTION', limit: 10 },
    );
    await deliveriesSettled(world);
    const [request] = await world.db.sql<{ deadline: Date; state: string; object_type: string }[]>`
      select deadline, state, object_type from sync_requests where sync_request_id = ${press.sync_request_id}`;
    expect(request).toMatchObject({ state: 'OPEN', object_type: 'TRANSACTION' });
    expect(request!.deadline.getTime()).toBeLessThanOrEqual(Date.parse(press.deadline));
    expect(Date.parse(press.deadline) - request!.deadline.getTime()).toBeLessThan(2_000);
    const run = await queues.syncButton.getJob(syncButtonJobId(press.sync_request_id));
    expect(run?.data).toMatchObject({ syncRequestId: press.sync_request_id, objectType: 'TRANSACTION' });
    const watchdog = await queues.syncWatchdog.getJob(watchdogJobId(press.sync_request_id));
    expect(await watchdog?.getState()).toBe('delayed');
    // It first wakes at the earliest start its bounds allow, and sets its start from the latency
    // seen then (jobs/watchdog.ts).
    const { maxLeadMs, minLeadMs } = leadBounds(SYNC_WINDOW_MS);
    expect(watchdog!.timestamp + watchdog!.delay).toBeGreaterThan(
      request!.deadline.getTime() - maxLeadMs - 1_000,
    );
    expect(watchdog!.timestamp + watchdog!.delay).toBeLessThanOrEqual(
      request!.deadline.getTime() - minLeadMs,
    );
    expect(watchdog!.data.watchdogLeadMs).toBeUndefined();

    // A replay of the same event (same id, valid signature) changes nothing.
    const hooks = await world.control<{ events: { id: string; object: { sync_request_id?: string } }[] }>(
      'GET',
      '/__stub/webhooks',
    );
    const event = hooks.events.find((e) => e.object.sync_request_id === press.sync_request_id)!;
    const body = JSON.stringify(event);
    expect(await postWebhook(endpoint, body, sign(body, secret))).toEqual({
      status: 200,
      body: { status: 'duplicate' },
    });
    expect(await queues.syncButton.getJobCounts('waiting')).toEqual({ waiting: 1 });
  });

  it('bad signatures (401), malformed JSON (400), oversized bodies (413) and old events enqueue nothing', async () => {
    const before = { button: await queues.syncButton.count(), sync: await waitingIds() };
    const event = {
      id: randomUUID(),
      type: 'transactions.sync_requested',
      created_at: new Date().toISOString(),
      business_id: 'b',
      object: { id: 'r-forged', sync_request_id: 'r-forged' },
    };
    const body = JSON.stringify(event);
    expect((await postWebhook(endpoint, body, sign(body, 'whsec_forged_forged_forged_00'))).status).toBe(401);
    expect((await postWebhook(endpoint, body)).status).toBe(401);
    // One hex digit changed (always to another digit, whatever the signature starts with).
    const real = sign(body, secret);
    const tampered = `${real[0] === 'f' ? 'e' : 'f'}${real.slice(1)}`.toUpperCase();
    expect((await postWebhook(endpoint, body, tampered)).status).toBe(401);
    const broken = '{"id": "x", "type": "bills.paid", ';
    expect((await postWebhook(endpoint, broken, sign(broken, secret))).status).toBe(400);
    const huge = JSON.stringify({ ...event, object: { id: 'x', pad: 'x'.repeat(300_000) } });
    expect((await postWebhook(endpoint, huge, sign(huge, secret))).status).toBe(413);
    const old = JSON.stringify({
      ...event,
      id: randomUUID(),
      created_at: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    });
    expect(await postWebhook(endpoint, old, sign(old, secret))).toEqual({
      status: 200,
      body: { status: 'ignored', reason: 'event too old' },
    });
    const [forged] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from sync_requests where sync_request_id = 'r-forged'`;
    expect(forged?.n).toBe(0);
    expect({ button: await queues.syncButton.count(), sync: await waitingIds() }).toEqual(before);
  });

  it('/healthz and /readyz answer over HTTP', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(await ready.json()).toEqual({ postgres: 'ok', redis: 'ok' });
  });

  it('/readyz says Redis is unreachable while one queue has not reconnected, though the shared client answers', async () => {
    const own = createQueues({ redisUrl: redis.url, prefix: `${redis.prefix}-ready` });
    const shared = redis.connect();
    const probe = await serve(own, shared);
    try {
      const readyz = async () => {
        const answer = await fetch(`${probe.url}/readyz`);
        return { status: answer.status, body: await answer.json() };
      };
      await own.objectSync.waitUntilReady();
      expect(await readyz()).toEqual({ status: 200, body: { postgres: 'ok', redis: 'ok' } });
      // The objectSync queue's own connection drops; the shared client still answers PING.
      const client = (await own.objectSync.getBackend().client) as unknown as {
        disconnect(): void;
        connect(): Promise<void>;
        once(event: 'end', listener: () => void): void;
      };
      // disconnect() only starts closing the socket: the status leaves 'ready' when it has closed.
      const ended = new Promise<void>((resolve) => client.once('end', resolve));
      client.disconnect();
      await ended;
      expect(await shared.ping()).toBe('PONG');
      expect(await readyz()).toEqual({ status: 503, body: { postgres: 'ok', redis: 'unreachable' } });
      await client.connect();
      expect(await readyz()).toEqual({ status: 200, body: { postgres: 'ok', redis: 'ok' } });
    } finally {
      await probe.close();
      await own.close();
    }
  });
});
