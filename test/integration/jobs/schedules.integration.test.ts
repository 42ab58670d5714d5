import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRedis } from '../../support/redis.ts';
import { useSyncWorld, worldEnv } from '../../support/sync-world.ts';
import { startWorkerProcess, type WorkerProcess } from '../worker-process.ts';

/**
 * docs/platform.md G10 (polling cadence) with three worker replicas: three real `ledgersync worker`
 * processes run the same schedules, here every 2 seconds, and each schedule window makes exactly
 * one run per kind (the job id names the window).
 */
const world = useSyncWorld();
const redis = useTestRedis();
const replicas: WorkerProcess[] = [];
let queue: Queue;

beforeAll(async () => {
  queue = new Queue('object-sync', { connection: { url: redis.url }, prefix: redis.prefix });
  await world.seed({ seed: 51, transactions: 20, reimbursements: 5, bills: 5, transfers: 2, cashbacks: 2 });
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop('SIGKILL')));
  await queue?.close();
});

const env = {
  DATABASE_SCHEMA: '',
  SCHEDULE_OBJECT_SYNC_WEEKDAYS: '*/2 * * * * *',
  SCHEDULE_OBJECT_SYNC_WEEKENDS: '*/2 * * * * *',
  SCHEDULE_COA_MIRROR: '0 0 1 1 *',
};

describe('schedules across replicas', () => {
  it('docs/platform.md G10: three replicas with the same schedules make exactly one run per window and kind', async () => {
    for (let i = 0; i < 3; i++) {
      replicas.push(
        startWorkerProcess(['--no-server'], {
          ...env,
          ...worldEnv(world, redis),
          PLATFORM_CONNECTION_ID: world.connectionId,
        }),
      );
    }
    await Promise.all(replicas.map((r) => r.waitForLine(/ledgersync worker running: workers, schedules/)));
    // Every replica is up: the windows from now on are ticked by all three.
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 9_000));
    const codes = await Promise.all(replicas.map((r) => r.stop('SIGTERM')));
    expect(codes).toEqual([0, 0, 0]);

    const jobs = await queue.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed']);
    const byWindow = new Map<string, string[]>();
    for (const job of jobs) {
      const [prefix, , kind, window] = job.id!.split('|');
      expect(prefix).toBe('sync');
      byWindow.set(window!, [...(byWindow.get(window!) ?? []), kind!]);
    }
    const compact = (t: number) =>
      new Date(t)
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z')
        .replace(/[-:]/g, '');
    const shared = [...byWindow.keys()].filter((w) => w > compact(from + 1_000) && w < compact(from + 8_000));
    expect(shared.length, `windows ${[...byWindow.keys()].sort().join(' ')}`).toBeGreaterThanOrEqual(2);
    for (const window of byWindow.keys()) {
      expect(Number(window.slice(-3, -1)) % 2, `window ${window} is on an even second`).toBe(0);
      expect(byWindow.get(window)!.sort(), window).toEqual([
        'bills',
        'cashbacks',
        'reimbursements',
        'transactions',
        'transfers',
      ]);
    }
    // Each job ran once: one run row per scheduled job, none failed.
    const [runs] = await world.db.sql<{ n: number; failed: number }[]>`
      select count(*)::int as n, count(*) filter (where status = 'failed')::int as failed
      from runs where trigger = 'cron'`;
    const finished = jobs.filter((j) => j.finishedOn).length;
    expect(runs).toEqual({ n: finished, failed: 0 });
    // The other replicas' adds for the same windows were dropped as duplicates by BullMQ.
    const admin = new Redis(redis.url);
    const stream = await admin.xrange(`${redis.prefix}:object-sync:events`, '-', '+');
    await admin.quit();
    const duplicated = stream.filter(([, fields]) => fields[1] === 'duplicated').length;
    expect(duplicated).toBeGreaterThanOrEqual(shared.length * 5);
  }, 60_000);
});
