import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import { statusReport } from '../../../../src/operations/index.ts';
import { createQueues, type Queues } from '../../../../src/queue/index.ts';
import { type RunningServer, startServer } from '../../../../src/server/server.ts';
import { checkSubscription, keepSubscription } from '../../../../src/server/webhooks/check-subscription.ts';
import { webhookSecrets } from '../../../../src/server/webhooks/webhook-secrets.ts';
import { capturedLog } from '../../../support/captured-log.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';
import { deliveriesSettled, type StubWebhooks, waitFor } from '../../support.ts';

/**
 * The worker checks its webhook subscription against the platform's list (docs/platform.md F20,
 * F32) instead of trusting its own row: a platform that lost it (a restarted `ledgersync try`) is
 * noticed, the subscription registered again, and `status` says so. It used to stay silent while
 * webhooks and the sync button stopped for good.
 */
const world = useSyncWorld({ stub: { config: { webhookRetryBaseMs: 5 } } });
const redis = useTestRedis();
let queues: Queues;
let server: RunningServer;
let endpoint: string;

beforeAll(async () => {
  queues = createQueues({ redisUrl: redis.url, prefix: redis.prefix });
  server = await startServer(
    {
      sql: world.db.sql,
      redis: redis.connect(),
      queues,
      connectionId: world.connectionId,
      log: silentLogger,
      // Read for every delivery: the cache (a fresh read at most once a second) is not what this
      // file tests, and its deliveries follow each other closer than that.
      secrets: webhookSecrets(world.db.sql, undefined, 0),
    },
    { host: '127.0.0.1', port: 0 },
  );
  endpoint = `${server.url}/webhooks`;
  await world.seed({ seed: 7, transactions: 20, reimbursements: 0, bills: 0 });
});

afterAll(async () => {
  await server?.close();
  await queues?.close();
});

const deps = (log = silentLogger) => ({
  sql: world.db.sql,
  platform: world.platform,
  log,
  publicUrl: endpoint,
  timeoutMs: 10_000,
});
const stubHooks = () => world.control<StubWebhooks>('GET', '/__stub/webhooks');
const activeOnStub = async () => (await stubHooks()).subscriptions.filter((s) => s.status === 'active');
const findings = async () =>
  (await statusReport(world.db.sql, world.connectionId, { queues: queues.all() })).health.findings;
const warnings = (lines: string[]) =>
  lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40);

/** A transaction made ready on the stub now: its webhook is answered 200 and lands in webhook_events. */
async function webhookReachesTheWorker(): Promise<void> {
  const { ids } = await world.control<{ ids: string[] }>('POST', '/__stub/objects/transactions', {
    count: 1,
  });
  const hooks = await deliveriesSettled(world);
  const event = hooks.events.find((e) => e.object.id === ids[0]);
  expect(event, 'the stub emitted the event').toBeDefined();
  expect(hooks.deliveries.filter((d) => d.event_id === event!.id).map((d) => d.status)).toContain(200);
  const [row] = await world.db.sql<{ n: number }[]>`
    select count(*)::int as n from webhook_events where event_id = ${event!.id}`;
  expect(row!.n).toBe(1);
}

describe('the webhook subscription, checked against the platform (docs/platform.md F20, F32)', () => {
  it('F20: a first check registers the subscription; the next finds it listed and registers nothing', async () => {
    const first = await checkSubscription(deps());
    expect(first).toMatchObject({ outcome: 'present', registration: { status: 'active', created: true } });
    const second = await checkSubscription(deps());
    expect(second).toEqual({ outcome: 'present', subscriptionId: first.subscriptionId });
    expect((await activeOnStub()).map((s) => s.id)).toEqual([first.subscriptionId]);
    expect((await findings()).join('\n')).not.toMatch(/webhook subscription/);
    await webhookReachesTheWorker();
  });

  it('F32: a subscription the platform lost is registered again with one warning; status says so; webhooks arrive again', async () => {
    const before = await checkSubscription(deps());
    await world.control('DELETE', '/__stub/webhooks');
    expect(await activeOnStub()).toEqual([]);

    const { log, lines } = capturedLog();
    const checked = await checkSubscription(deps(log));
    expect(checked.outcome).toBe('missing');
    expect(checked.subscriptionId).not.toBe(before.subscriptionId);
    expect((await activeOnStub()).map((s) => s.id)).toEqual([checked.subscriptionId]);
    expect(warnings(lines).map((l) => l.msg)).toEqual([
      "the platform no longer has this worker's webhook subscription; registering it again",
    ]);
    // The lost one's secret is no longer accepted; the new one is in force.
    const rows = await world.db.sql<{ id: string; status: string }[]>`
      select id, status from webhook_subscriptions where endpoint_url = ${endpoint}`;
    expect(rows.find((r) => r.id === before.subscriptionId)?.status).toBe('disabled');
    expect(rows.find((r) => r.id === checked.subscriptionId)?.status).toBe('active');

    const report = await statusReport(world.db.sql, world.connectionId, { queues: queues.all() });
    expect(report.health.state).not.toBe('ok');
    expect(report.health.findings.join('\n')).toMatch(
      new RegExp(`no longer had the webhook subscription .*Registered again as ${checked.subscriptionId}`),
    );
    await webhookReachesTheWorker();

    // The next check finds it in place: the warning goes.
    expect((await checkSubscription(deps())).outcome).toBe('present');
    expect((await findings()).join('\n')).not.toMatch(/webhook subscription/);
  });

  it('F32: a list the platform will not give is a failed check: one warning however often, and status says so', async () => {
    await world.control('PUT', '/__stub/faults', { missing_routes: ['GET /webhooks'] });
    try {
      const { log, lines } = capturedLog();
      expect((await checkSubscription(deps(log))).outcome).toBe('failed');
      expect((await checkSubscription(deps(log))).outcome).toBe('failed');
      expect(warnings(lines).map((l) => l.msg)).toEqual([
        'the webhook subscription could not be checked against the platform',
      ]);
      expect((await findings()).join('\n')).toMatch(
        /could not be checked or registered .*GET \/webhooks failed/,
      );
      // Nothing was registered meanwhile: the subscription in force is still the one listed.
      expect(await activeOnStub()).toHaveLength(1);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
    expect((await checkSubscription(deps())).outcome).toBe('present');
  });

  it('F32: the worker checks on a schedule: a subscription lost while it runs comes back without a restart', async () => {
    const stop = new AbortController();
    const kept = keepSubscription({ ...deps(), everyMs: 100, signal: stop.signal });
    try {
      await waitFor(async () => (await activeOnStub()).length === 1, { what: 'the subscription in force' });
      await world.control('DELETE', '/__stub/webhooks');
      const back = await waitFor(async () => (await activeOnStub())[0], {
        what: 'the subscription registered again',
        timeoutMs: 20_000,
      });
      expect(back.endpoint_url).toBe(endpoint);
    } finally {
      stop.abort();
      await kept;
    }
    await webhookReachesTheWorker();
  });
});
