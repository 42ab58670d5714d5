import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledJobId } from '../../../src/queue/index.ts';
import { useTestRedis } from '../../support/redis.ts';
import { useSyncWorld, worldEnv } from '../../support/sync-world.ts';
import { startWorkerProcess, type WorkerProcess } from '../worker-process.ts';

/**
 * docs/platform.md G10 (polling cadence): a worker that starts enqueues what its schedules would
 * have run while no worker was up. Two real `ledgersync worker` processes start together (taking
 * no jobs, so what they enqueued stays countable) over a database where transactions never ran.
 */
const world = useSyncWorld();
const redis = useTestRedis();
const workers: WorkerProcess[] = [];
let objectSync: Queue;
let coaMirror: Queue;

// A daily schedule that fired an hour ago: its window is known, its next one is 23 h away, so no
// cron tick lands during the test.
const HOUR = 3_600_000;
const window = new Date(Math.floor((Date.now() - HOUR) / 60_000) * 60_000);
const daily = `${window.getUTCMinutes()} ${window.getUTCHours()} * * *`;

beforeAll(async () => {
  objectSync = new Queue('object-sync', { connection: { url: redis.url }, prefix: redis.prefix });
  coaMirror = new Queue('coa-mirror', { connection: { url: redis.url }, prefix: redis.prefix });
  const run = (kind: string, hoursAgo: number) => world.db.sql`
    insert into runs (connection_id, kind, trigger, status, started_at, finished_at, counts)
    values (${world.connectionId}, ${kind}, 'cron', 'succeeded',
      now() - make_interval(secs => ${hoursAgo * 3600 + 60}), now() - make_interval(secs => ${hoursAgo * 3600}),
      '{"read":0,"posted":0,"failed":0}'::jsonb)`;
  await run('bills', 0.1);
  await run('transfers', 0.1);
  await run('cashbacks', 0.1);
  await run('reimbursements', 72);
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await objectSync?.close();
  await coaMirror?.close();
});

describe('overdue runs at worker start', () => {
  it('G10: two workers starting at once enqueue the never-run transactions, the overdue kinds and the chart mirror once each; a kind that ran recently is not enqueued', async () => {
    const env = {
      ...worldEnv(world, redis),
      PLATFORM_CONNECTION_ID: world.connectionId,
      TZ: 'UTC',
      LOG_LEVEL: 'info',
      SCHEDULE_OBJECT_SYNC_WEEKDAYS: daily,
      SCHEDULE_OBJECT_SYNC_WEEKENDS: daily,
      SCHEDULE_COA_MIRROR: daily,
    };
    for (let i = 0; i < 2; i++) workers.push(startWorkerProcess(['--no-server', '--no-workers'], env));
    await Promise.all(workers.map((w) => w.waitForLine(/ledgersync worker running: schedules/)));

    const objectJobs = await objectSync.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed']);
    expect(objectJobs.map((j) => j.id).sort()).toEqual(
      ['reimbursements', 'transactions'].map((kind) => scheduledJobId(world.connectionId, kind, window)),
    );
    const transactions = objectJobs.find((j) => j.data.kind === 'transactions');
    expect(transactions?.data).toEqual({
      connectionId: world.connectionId,
      kind: 'transactions',
      trigger: 'cron',
    });
    const mirrorJobs = await coaMirror.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed']);
    expect(mirrorJobs.map((j) => j.id)).toEqual([scheduledJobId(world.connectionId, 'coa', window)]);

    // Each worker says what it enqueued and why, one line per kind.
    for (const worker of workers) {
      expect(worker.output()).toContain(
        'transactions: no good run yet, schedule every 24 h; enqueued at start',
      );
      expect(worker.output()).toContain(
        'reimbursements: last good run 3 d ago, schedule every 24 h; enqueued at start',
      );
      expect(worker.output()).toContain('coa: no good run yet, schedule every 24 h; enqueued at start');
      expect(worker.output()).not.toContain('bills:');
    }
    expect(await Promise.all(workers.map((w) => w.stop('SIGTERM')))).toEqual([0, 0]);
  }, 90_000);
});
