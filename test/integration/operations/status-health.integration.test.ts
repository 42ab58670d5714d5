import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import { formatStatus } from '../../../src/operations/format-status.ts';
import { createMetrics } from '../../../src/operations/metrics.ts';
import { countStalled } from '../../../src/operations/queue-snapshot.ts';
import { statusReport } from '../../../src/operations/status-report.ts';
import {
  HEARTBEAT_STALE_MS,
  readHeartbeats,
  startHeartbeat,
} from '../../../src/operations/worker-heartbeat.ts';
import { createQueues, type Queues } from '../../../src/queue/index.ts';
import { useTestDatabase } from '../../support/db.ts';
import { useTestRedis } from '../../support/redis.ts';
import { waitFor } from '../support.ts';

/**
 * What `status` and the status page read besides the sync ledger, on a real Redis and
 * PostgreSQL: the workers' heartbeats, the queues (jobs by state, stalled ones), the last good
 * and next scheduled run of each kind, and the series behind the charts. And the queue depth
 * series of /metrics.
 */
const db = useTestDatabase();
const redis = useTestRedis();
const CONNECTION = 'conn-health';
let queues: Queues;
let admin: Redis;

beforeAll(async () => {
  queues = createQueues({ redisUrl: redis.url, prefix: redis.prefix });
  admin = redis.connect();
});

afterAll(async () => {
  await queues?.close();
});

const lines = (text: string, name: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((l) => l.startsWith(`${name}{`))
      .map((l) => {
        const [series, value] = l.split(' ');
        return [series!.slice(name.length), Number(value)];
      }),
  );

describe('queues: jobs by state, stalled jobs, and the queue depth series', () => {
  it('counts waiting, delayed, failed and stalled jobs; /metrics shows them per queue and state', async () => {
    await queues.objectSync.add('sync', { n: 1 });
    await queues.objectSync.add('sync', { n: 2 });
    await queues.objectSync.add('later', { n: 3 }, { delay: 3_600_000 });
    // A failed job: its processor throws, no retry.
    await queues.coaMirror.add('mirror', {}, { attempts: 1 });
    const failing = new Worker(
      'coa-mirror',
      async () => {
        throw new Error('boom');
      },
      { connection: { url: redis.url, maxRetriesPerRequest: null }, prefix: redis.prefix },
    );
    await waitFor(async () => (await queues.coaMirror.getJobCounts('failed')).failed === 1, {
      what: 'the failed job',
    });
    await failing.close();
    // A stalled job: taken by a worker that then died (its lock lapses, nothing renews it).
    await queues.syncButton.add('press', {});
    const taker = new Worker('sync-button', null, {
      connection: { url: redis.url, maxRetriesPerRequest: null },
      prefix: redis.prefix,
      lockDuration: 500,
      autorun: false,
    });
    expect(await taker.getNextJob('dead-worker-token')).toBeTruthy();
    await taker.close(true);
    expect(
      await waitFor(async () => (await countStalled(queues.syncButton)) === 1, { what: 'the lock to lapse' }),
    ).toBe(true);

    const metrics = createMetrics({ processMetrics: false });
    metrics.watchQueues({ queues: queues.all(), log: silentLogger, cacheMs: 0 });
    const { body } = await metrics.render();
    expect(body).toContain('# TYPE ledgersync_queue_jobs gauge');
    const jobs = lines(body, 'ledgersync_queue_jobs');
    expect(jobs).toMatchObject({
      '{queue="object-sync",state="waiting"}': 2,
      '{queue="object-sync",state="active"}': 0,
      '{queue="object-sync",state="delayed"}': 1,
      '{queue="object-sync",state="failed"}': 0,
      '{queue="coa-mirror",state="failed"}': 1,
      '{queue="sync-button",state="active"}': 1,
      '{queue="sync-watchdog",state="waiting"}': 0,
    });
    expect(body).toMatch(/^ledgersync_metrics_queues_up 1$/m);

    const report = await statusReport(db.sql, CONNECTION, { queues: queues.all() });
    expect(report.health.queues).toContainEqual({
      queue: 'sync-button',
      waiting: 0,
      active: 1,
      delayed: 0,
      failed: 0,
      stalled: 1,
    });
    expect(report.health.failedJobs).toBe(1);
    expect(report.health.stalledJobs).toBe(1);
    expect(report.health.state).toBe('problem');
    expect(report.health.findings).toEqual([
      'No worker is running: queued and scheduled syncs wait until `ledgersync worker` runs.',
      '1 stalled job: the worker running it stopped; a running worker takes it up again.',
      '1 failed job kept for a week: see the queue dashboard.',
    ]);
    await queues.objectSync.obliterate({ force: true });
    await queues.coaMirror.obliterate({ force: true });
    await queues.syncButton.obliterate({ force: true });
  });

  it('a Redis that cannot be read shows stale counts in /metrics (queues_up 0) and is a finding in the report', async () => {
    const gone = createQueues({ redisUrl: 'redis://127.0.0.1:1', prefix: redis.prefix });
    try {
      const metrics = createMetrics({ processMetrics: false });
      metrics.watchQueues({ queues: gone.all(), log: silentLogger, cacheMs: 0, timeoutMs: 500 });
      expect((await metrics.render()).body).toMatch(/^ledgersync_metrics_queues_up 0$/m);
      const report = await statusReport(db.sql, CONNECTION, { queues: gone.all(), timeoutMs: 500 });
      expect(report.health.state).toBe('problem');
      expect(report.health.queues).toBeNull();
      expect(report.health.findings[0]).toMatch(
        /^Redis could not be read \(.+\): whether a worker runs is unknown\.$/,
      );
    } finally {
      await gone.close();
    }
  });
});

describe('heartbeats, last good and next scheduled runs', () => {
  it('a running worker is seen with what it runs; the next runs come from its schedules; gone once it stops', async () => {
    const schedules = {
      objectSyncWeekdays: '0 */2 * * 1-5',
      objectSyncWeekends: '0 */12 * * 0,6',
      coaMirror: '30 1 * * *',
      timezone: 'UTC',
    };
    const beating = startHeartbeat(
      redis.connect(),
      redis.prefix,
      { queues: ['object-sync', 'sync-button'], schedules, server: false },
      silentLogger,
    );
    const [seen] = await waitFor(async () => {
      const beats = await readHeartbeats(admin, redis.prefix);
      return beats.length ? beats : null;
    });
    expect(seen).toMatchObject({
      pid: process.pid,
      queues: ['object-sync', 'sync-button'],
      schedules,
      server: false,
    });

    const hour = 3_600_000;
    const ago = (ms: number) => new Date(Date.now() - ms);
    await db.sql`
      insert into runs (connection_id, kind, trigger, started_at, finished_at, status, counts) values
        (${CONNECTION}, 'transactions', 'cron', ${ago(3 * hour)}, ${ago(3 * hour - 1000)}, 'succeeded', ${db.sql.json({ posted: 90, failed: 1 })}),
        (${CONNECTION}, 'transactions', 'webhook', ${ago(2 * hour)}, ${ago(2 * hour - 1000)}, 'succeeded', ${db.sql.json({ posted: 0, failed: 4 })}),
        (${CONNECTION}, 'transactions', 'webhook', ${ago(hour)}, ${ago(hour - 1000)}, 'succeeded', ${db.sql.json({ posted: 0, failed: 0, busy: true })}),
        (${CONNECTION}, 'bills', 'cron', ${ago(hour)}, ${ago(hour - 1000)}, 'failed', '{}'),
        (${CONNECTION}, 'transactions', 'sync_button', ${ago(30 * 60_000)}, ${ago(30 * 60_000 - 500)}, 'succeeded', ${db.sql.json({ outcome: 'answered', summary: { posted: 3, failed: 2 } })}),
        (${CONNECTION}, 'coa', 'cron', ${ago(5 * hour)}, ${ago(5 * hour - 9000)}, 'succeeded', '{}')`;
    await db.sql`
      insert into sync_requests (sync_request_id, connection_id, object_type, requested_at, deadline, state, answered_at) values
        ('req-1', ${CONNECTION}, 'TRANSACTION', ${ago(hour)}, ${ago(hour - 300_000)}, 'ANSWERED', ${ago(hour - 1500)}),
        ('req-2', ${CONNECTION}, 'TRANSACTION', ${ago(30 * 60_000)}, ${ago(30 * 60_000 - 300_000)}, 'ANSWERED', ${ago(30 * 60_000 - 4200)})`;
    // The outbox: 50 results waited from 3 h ago until 2 h ago; 30 from 25 until 15 minutes ago;
    // 20 wait since 10 minutes ago.
    await db.sql`
      insert into result_batches (connection_id, sync_type, body, idempotency_key, item_count, state, created_at, acked_at) values
        (${CONNECTION}, 'TRANSACTION_SYNC', '{}', 'key-acked', 50, 'ACKED', ${ago(3 * hour)}, ${ago(2 * hour)}),
        (${CONNECTION}, 'TRANSACTION_SYNC', '{}', 'key-drained', 30, 'ACKED', ${ago(25 * 60_000)}, ${ago(15 * 60_000)}),
        (${CONNECTION}, 'TRANSACTION_SYNC', '{}', 'key-frozen', 20, 'FROZEN', ${ago(10 * 60_000)}, null)`;

    const report = await statusReport(db.sql, CONNECTION, { queues: queues.all() });
    const { health, history } = report;
    expect(health.workers.map((w) => w.pid)).toEqual([process.pid]);
    const timing = Object.fromEntries(health.kinds.map((k) => [k.kind, k]));
    // The latest good transactions run is the button run (the all-failed and the busy ones do not count).
    expect(timing.transactions!.lastGoodRun?.trigger).toBe('sync_button');
    expect(timing.bills!.lastGoodRun).toBeNull();
    expect(timing.coa!.lastGoodRun?.trigger).toBe('cron');
    for (const kind of ['transactions', 'bills', 'coa']) {
      const next = timing[kind]!.nextScheduledRun!;
      expect(Date.parse(next.at)).toBeGreaterThan(Date.parse(report.generatedAt));
      expect(next.inSeconds).toBeGreaterThanOrEqual(0);
    }
    expect(health.findings).toContain("bills: the last run stopped with an error (see the worker's log).");

    // Busy runs are left out of the chart; the button run's counts are read from its summary.
    expect(history.runs.map((r) => [r.kind, r.trigger, r.status, r.posted, r.failed])).toEqual([
      ['transactions', 'cron', 'succeeded', 90, 1],
      ['transactions', 'webhook', 'succeeded', 0, 4],
      ['bills', 'cron', 'failed', 0, 0],
      ['transactions', 'sync_button', 'succeeded', 3, 2],
    ]);
    expect(history.buttonLatency.map((p) => p.ms)).toEqual([1500, 4200]);
    expect(history.outboxDepth).toHaveLength(48);
    const depth = history.outboxDepth.map((s) => s.items);
    expect(depth.at(-1), 'the peak of the last 30 minutes').toBe(30);
    expect(history.outboxNow, 'what waits now, not the peak of the last step').toBe(20);
    expect(Math.max(...depth)).toBe(50);
    expect(depth.slice(0, 40).every((n) => n === 0)).toBe(true);

    await beating.stop();
    expect(await readHeartbeats(admin, redis.prefix)).toEqual([]);
    const after = await statusReport(db.sql, CONNECTION, { queues: queues.all() });
    expect(after.health.workers).toEqual([]);
    expect(after.health.kinds.every((k) => k.nextScheduledRun === null)).toBe(true);
  });
});

describe('worker clocks and the workers counted', () => {
  it('a worker whose clock is 90 s behind is up, its skew is shown and is a finding; two workers with the same host and pid are two', async () => {
    const parts = { queues: ['object-sync', 'sync-button'], schedules: null, server: false };
    // Two processes in one host name and pid (pid 1 in two containers), one of them 90 s behind.
    const inStep = startHeartbeat(redis.connect(), redis.prefix, parts, silentLogger);
    const behind = startHeartbeat(
      redis.connect(),
      redis.prefix,
      parts,
      silentLogger,
      () => Date.now() - 90_000,
    );
    try {
      const beats = await waitFor(async () => {
        const seen = await readHeartbeats(admin, redis.prefix);
        return seen.length === 2 ? seen : null;
      });
      const skews = beats
        .map((b) => Math.round((b.clockSkewMs ?? Number.NaN) / 1000) || 0)
        .sort((a, b) => a - b);
      expect(skews).toEqual([-90, 0]);
      expect(beats.every((b) => b.ageMs < HEARTBEAT_STALE_MS)).toBe(true);

      const report = await statusReport(db.sql, 'conn-clocks', { queues: queues.all() });
      expect(report.health.workers.map((w) => [w.pid, w.clockSkewSeconds])).toEqual(
        expect.arrayContaining([
          [process.pid, -90],
          [process.pid, 0],
        ]),
      );
      expect(report.health.findings).toContain(
        `Worker ${report.health.workers[0]!.host}:${process.pid}'s clock is 90 s behind Redis's: sync-button deadlines use the database's clock, but fix the time sync (NTP) on that host: its delayed jobs and log times follow its own clock.`,
      );
      const text = formatStatus(report);
      expect(text.match(/^ {2}worker .*, heartbeat \d+ s ago, /gm)).toHaveLength(2);
      expect(text).toContain('clock 90 s behind Redis');
    } finally {
      await inStep.stop();
      await behind.stop();
    }
  });
});
