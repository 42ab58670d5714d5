import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../../jobs/worker.ts';
import { createQueues, enqueueCoalescedSync, type Queues } from '../../../src/queue/index.ts';
import { useTestRedis } from '../../support/redis.ts';
import { useSyncWorld } from '../../support/sync-world.ts';
import { appFor, type GatedErp, gatedErp, waitFor } from '../support.ts';

/**
 * BullMQ queues and workers on a real Redis, running real syncs against the stub and the ledger:
 * one sync of a kind per connection at a time, kinds side by side, coalescing while a run is
 * active, failed jobs keeping their error, stalled jobs recovered and safely repeated.
 */
const world = useSyncWorld();
const redis = useTestRedis();
let queues: Queues;
let gate: GatedErp;
let workers: RunningWorkers;
let events: QueueEvents;

beforeAll(async () => {
  queues = createQueues({ redisUrl: redis.url, prefix: redis.prefix });
  events = new QueueEvents('object-sync', { connection: { url: redis.url }, prefix: redis.prefix });
  await events.waitUntilReady();
  gate = gatedErp(world.erp);
  await world.seed({
    seed: 8,
    transactions: 300,
    reimbursements: 60,
    bills: 0,
    transfers: 0,
    cashbacks: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    vendor_creation_fraction: 0,
  });
});

afterAll(async () => {
  gate?.open();
  await workers?.close(5_000);
  await events?.close();
  await queues?.close();
});

const idle = async () => {
  const counts = await queues.objectSync.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  return Object.values(counts).every((n) => n === 0);
};

describe('object-sync queue', () => {
  it('one sync of a kind per connection at a time: the second job is "skipped: already running"; kinds run side by side', async () => {
    workers = startWorkers(appFor(world, redis, { erp: gate.erp }), {
      connection: { redisUrl: redis.url, prefix: redis.prefix },
      queues,
      busyRetryMs: 300,
      queuesToWork: ['objectSync'],
    });
    gate.close();
    const first = await queues.objectSync.add('sync', {
      connectionId: world.connectionId,
      kind: 'transactions',
      trigger: 'cron',
    });
    await waitFor(() => gate.waiting.has('card_transaction'), { what: 'the first run to reach the ERP' });
    const second = await queues.objectSync.add('sync', {
      connectionId: world.connectionId,
      kind: 'transactions',
      trigger: 'cli',
    });
    const skipped = await second.waitUntilFinished(events, 15_000);
    expect(skipped).toEqual({ outcome: 'skipped: already running', kind: 'transactions', followUp: false });

    const other = await queues.objectSync.add('sync', {
      connectionId: world.connectionId,
      kind: 'reimbursements',
      trigger: 'cron',
    });
    // Both kinds are mid-run at once, each holding its own lock.
    await waitFor(() => gate.waiting.has('reimbursement'), {
      what: 'reimbursements to run beside transactions',
    });
    expect(await first.getState()).toBe('active');

    // A webhook-triggered job that finds its kind running leaves one delayed follow-up.
    await enqueueCoalescedSync(queues, world.connectionId, 'transactions');
    await waitFor(async () => (await queues.objectSync.getJobCounts('delayed')).delayed === 1, {
      what: 'the follow-up',
    });

    gate.open();
    const done = await first.waitUntilFinished(events, 30_000);
    expect(done.outcome).toBe('synced');
    expect(done.summary.read).toBeGreaterThan(0);
    expect((await other.waitUntilFinished(events, 30_000)).outcome).toBe('synced');
    await waitFor(idle, { what: 'the follow-up chain to end', timeoutMs: 30_000 });
    const [left] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from sync_ledger where state <> 'REPORTED'`;
    expect(left?.n).toBe(0);
  });

  it('a burst of 1,000 events during a run leaves one active and one waiting run, not 1,000', async () => {
    await world.control('POST', '/__stub/objects/transactions', { count: 50 });
    gate.close();
    await enqueueCoalescedSync(queues, world.connectionId, 'transactions');
    await waitFor(() => gate.waiting.has('card_transaction'), { what: 'the run to reach the ERP' });
    await Promise.all(
      Array.from({ length: 1000 }, () => enqueueCoalescedSync(queues, world.connectionId, 'transactions')),
    );
    const counts = await queues.objectSync.getJobCounts('active', 'waiting', 'delayed');
    expect(counts).toEqual({ active: 1, waiting: 0, delayed: 0 });
    // keepLastIfActive: the follow-up is created when the active run finishes.
    const completedBefore = await queues.objectSync.getCompletedCount();
    gate.open();
    await waitFor(idle, { what: 'the runs to finish', timeoutMs: 30_000 });
    expect((await queues.objectSync.getCompletedCount()) - completedBefore).toBe(2);
  });

  it('a failed job keeps its error; a payload that fails its schema fails at once, without retries', async () => {
    const bad = await queues.objectSync.add('sync', { connectionId: world.connectionId, kind: 'nonsense' });
    await expect(bad.waitUntilFinished(events, 10_000)).rejects.toThrow(
      /Invalid object-sync job payload: kind/,
    );
    const failed = await queues.objectSync.getJob(bad.id!);
    expect(failed?.failedReason).toMatch(/kind/);
    expect(failed?.attemptsMade).toBe(1);
    expect(failed?.stacktrace?.length).toBeGreaterThan(0);
  });
});
