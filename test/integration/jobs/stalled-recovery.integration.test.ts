import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../../jobs/worker.ts';
import { createQueues, type Queues } from '../../../src/queue/index.ts';
import { useTestRedis } from '../../support/redis.ts';
import { useSyncWorld, worldEnv } from '../../support/sync-world.ts';
import { appFor, waitFor } from '../support.ts';

/**
 * A worker process dies mid-sync (SIGKILL): BullMQ finds the job stalled when its lock lapses and
 * gives it to another worker, and repeating the sync is safe (every object written to the ERP and
 * marked synced once).
 */
const CHILD = fileURLToPath(new URL('./stalled-child.ts', import.meta.url));
const world = useSyncWorld();
const redis = useTestRedis();
let queues: Queues;
let events: QueueEvents;
let rescuer: RunningWorkers | undefined;

beforeAll(async () => {
  queues = createQueues({ redisUrl: redis.url, prefix: redis.prefix });
  events = new QueueEvents('object-sync', { connection: { url: redis.url }, prefix: redis.prefix });
  await events.waitUntilReady();
  await world.seed({
    seed: 61,
    transactions: 6_000,
    reimbursements: 0,
    bills: 0,
    transfers: 0,
    cashbacks: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    vendor_creation_fraction: 0,
  });
});

afterAll(async () => {
  await rescuer?.close(5_000);
  await events?.close();
  await queues?.close();
});

describe('stalled jobs', () => {
  it('a job whose worker was killed is recovered by another worker and its repeat writes nothing twice', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx/esm', CHILD], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        ...worldEnv(world, redis),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await Promise.race([
      new Promise<void>((resolve) =>
        child.stdout!.on('data', (d) => String(d).includes('ready') && resolve()),
      ),
      exited.then((code) =>
        Promise.reject(new Error(`the worker child exited (${code}) before it was ready`)),
      ),
    ]);
    const job = await queues.objectSync.add('sync', {
      connectionId: world.connectionId,
      kind: 'transactions',
      trigger: 'cron',
    });
    await waitFor(
      async () => ((await queues.objectSync.getJob(job.id!))?.progress as { posted?: number })?.posted,
      { what: 'the sync to be under way' },
    );
    child.kill('SIGKILL');
    await exited;
    expect(await job.getState()).toBe('active');

    const stalled = new Promise<string>((resolve) => events.once('stalled', ({ jobId }) => resolve(jobId)));
    rescuer = startWorkers(appFor(world, redis), {
      connection: { redisUrl: redis.url, prefix: redis.prefix },
      queues,
      queuesToWork: ['objectSync'],
      tuning: { stalledInterval: 500 },
    });
    expect(await stalled).toBe(job.id);
    const result = await job.waitUntilFinished(events, 45_000);
    expect(result.outcome).toBe('synced');

    const summary = await world.control<{ summary: { synced_more_than_once: unknown[] } }>(
      'GET',
      '/__stub/effects?summary=true&limit=1',
    );
    expect(summary.summary.synced_more_than_once).toEqual([]);
    const [left] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from sync_ledger where state <> 'REPORTED'`;
    expect(left?.n).toBe(0);
    const [dupes] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from (
        select source_object_id from ${world.db.sql(world.ledgerSchema)}.journal_entries
        group by source_kind, source_object_id having count(*) > 1) d`;
    expect(dupes?.n).toBe(0);
  }, 60_000);
});
