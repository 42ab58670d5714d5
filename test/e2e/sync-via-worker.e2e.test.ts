import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coalesceId } from '../../src/queue/index.ts';
import { startWorkerProcess, type WorkerProcess } from '../integration/worker-process.ts';
import { runCli } from '../support/cli.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/** `sync <kind> --via-worker` through the real binary: the run goes to the worker, not here. */
const world = useSyncWorld();
const redis = useTestRedis();
let objectSync: Queue;
let worker: WorkerProcess | undefined;

const env = () => ({ ...worldEnv(world, redis), PLATFORM_CONNECTION_ID: world.connectionId });

interface Queued {
  connectionId: string;
  queued: { kind: string; queue: string; jobId: string; state: string }[];
  workerRunning: boolean | null;
}

beforeAll(async () => {
  objectSync = new Queue('object-sync', { connection: { url: redis.url }, prefix: redis.prefix });
  await world.seed({ seed: 61, transactions: 15 });
});

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await objectSync?.close();
});

async function stateOf(jobId: string, want: string, timeoutMs = 45_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await objectSync.getJobState(jobId);
    if (state === want || Date.now() > deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('sync --via-worker', () => {
  it('queues one transactions job (asked twice, still one), which a worker then runs with trigger operator', async () => {
    const first = await runCli(['sync', 'transactions', '--via-worker', '--json'], env());
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.trim().split('\n')).toHaveLength(1);
    const queued = JSON.parse(first.stdout) as Queued;
    expect(queued.queued).toHaveLength(1);
    const [job] = queued.queued;
    expect(job).toMatchObject({ kind: 'transactions', queue: 'object-sync', state: 'waiting' });
    // No worker runs yet: the command says the job waits for one.
    expect(queued.workerRunning).toBe(false);
    expect(first.stderr).toContain('no running worker takes these jobs');
    // Nothing ran in the command itself.
    const [before] = await world.db.sql<{ n: number }[]>`select count(*)::int as n from runs`;
    expect(before?.n).toBe(0);

    const again = await runCli(['sync', 'transactions', '--via-worker'], env());
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`transactions: queued as job ${job!.jobId} on object-sync (waiting)`);
    const waiting = await objectSync.getJobs(['waiting']);
    expect(waiting.map((j) => j.id)).toEqual([job!.jobId]);
    expect(waiting[0]?.data).toEqual({
      connectionId: world.connectionId,
      kind: 'transactions',
      trigger: 'operator',
    });
    expect(await objectSync.getDeduplicationJobId(coalesceId(world.connectionId, 'transactions'))).toBe(
      job!.jobId,
    );

    worker = startWorkerProcess(['--no-server', '--no-schedules'], env());
    expect(await stateOf(job!.jobId, 'completed')).toBe('completed');
    const runs = await world.db.sql<{ kind: string; trigger: string; status: string }[]>`
      select kind, trigger, status from runs`;
    expect(runs).toEqual([{ kind: 'transactions', trigger: 'operator', status: 'succeeded' }]);
    const [synced] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from sync_ledger where sync_type = 'TRANSACTION_SYNC'`;
    expect(synced?.n).toBeGreaterThan(0);
  }, 120_000);

  it('exits 69 with one line naming Redis when it is unreachable', async () => {
    const result = await runCli(
      ['sync', 'all', '--via-worker'],
      { ...env(), REDIS_URL: 'redis://127.0.0.1:1' },
      30_000,
    );
    expect(result.code, result.stderr).toBe(69);
    expect(result.stderr).toContain('Redis at 127.0.0.1:1 is unavailable');
    expect(result.stdout).toBe('');
  });

  it('--via-worker with --dry-run is a usage error', async () => {
    const result = await runCli(['sync', 'transactions', '--via-worker', '--dry-run'], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("'--via-worker' cannot be used with option '--dry-run'");
  });
});
