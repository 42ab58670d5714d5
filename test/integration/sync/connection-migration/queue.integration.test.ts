import { afterEach, describe, expect, it } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../../../jobs/worker.ts';
import type { AppContext } from '../../../../src/app/index.ts';
import { loadConfig } from '../../../../src/config.ts';
import type { SyncObjectsPayload } from '../../../../src/queue/index.ts';
import {
  createQueues,
  enqueueMigration,
  latestMigrationJob,
  type Queues,
} from '../../../../src/queue/index.ts';
import { withAdvisoryLock } from '../../../../src/sync/advisory-lock.ts';
import { migrationProgress } from '../../../../src/sync/connection-migration/index.ts';
import { migrationLockName } from '../../../../src/sync/connection-migration/lock-names.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { waitFor } from '../../support.ts';
import { PROVIDER, transactionSeed, useMigrationWorld } from './support/world.ts';

const m = useMigrationWorld();
const redis = useTestRedis();

let queues: Queues | undefined;
let workers: RunningWorkers | undefined;

afterEach(async () => {
  await workers?.close(5_000);
  await queues?.close();
  workers = undefined;
  queues = undefined;
});

function app(): AppContext {
  return {
    config: loadConfig({ NODE_ENV: 'test', QUEUE_PREFIX: redis.prefix }),
    redis: redis.connect(),
    ...m.deps(),
    close: async () => undefined,
  } as AppContext;
}

function start(queuesToWork: Parameters<typeof startWorkers>[1]['queuesToWork']): Queues {
  const connection = { redisUrl: redis.url, prefix: redis.prefix };
  queues = createQueues(connection);
  workers = startWorkers(app(), { connection, queues, queuesToWork });
  return queues;
}

describe('`migrate prepare` on the migration queue, taken by the worker (docs/platform.md G30)', () => {
  it('one job however often it is asked for; the worker runs it to ready and reports each step', async () => {
    await m.fresh();
    const q = start(['migration']);
    const payload = {
      provider: PROVIDER,
      backupDir: m.backupDir,
      force: false,
      skipSync: false,
      trigger: 'cli' as const,
    };
    const first = await enqueueMigration(q.migration, payload);
    const second = await enqueueMigration(q.migration, payload);
    expect(first.already).toBe(false);
    expect(second).toEqual({ jobId: first.jobId, already: true });

    const job = await waitFor(
      async () => {
        const view = await latestMigrationJob(q.migration);
        return view?.state === 'completed' || view?.state === 'failed' ? view : null;
      },
      { timeoutMs: 60_000, what: 'the prepare job to end' },
    );
    expect(job).toMatchObject({ id: first.jobId, state: 'completed', failedReason: null });
    expect(job.progress).toMatchObject({
      step: 'ready',
      done: ['check', 'backup', 'create_target', 'preload', 'verify', 'ready'],
    });
    const progress = await migrationProgress(m.world.db.sql, { job: () => latestMigrationJob(q.migration) });
    expect(progress).toMatchObject({ state: 'ready', phase: 'ready', done: 6, total: 6, running: false });
    expect(progress?.job?.id).toBe(first.jobId);
    // While a prepare holds the migration's lock (a job or a command), status says it is running.
    const lock = await migrationLockName(m.world.db.sql);
    await withAdvisoryLock(m.world.db.sql, lock, async () => {
      expect((await migrationProgress(m.world.db.sql))?.running).toBe(true);
    });
    // Once it has ended, asking again adds a new job (which finds nothing left to do).
    const third = await enqueueMigration(q.migration, payload);
    expect(third.already).toBe(false);
    expect(third.jobId).not.toBe(first.jobId);
  });

  it('a resumed prepare checks what is outstanding again instead of trusting the count of its first run', async () => {
    await m.fresh();
    const stopped = await m
      .prepare({
        checkpoint: (step, phase) => {
          if (step === 'backup' && phase === 'recorded') throw new Error('stopped after the backup');
        },
      })
      .catch((error: Error) => error.message);
    expect(stopped).toBe('stopped after the backup');
    const [recorded] = await m.world.db.sql<
      { total: number }[]
    >`select (outstanding->>'total')::int as total from connection_migrations`;
    expect(recorded!.total).toBe(0);
    // Objects became ready on the connection being left while the prepare was stopped.
    await m.world.seed({ ...transactionSeed(81, 12), append: true });

    const listed = await m.prepare({ skipSync: true });
    expect(listed.outcome).toBe('blocked');
    expect(listed.blocker?.code).toBe('outstanding_objects');
    expect(listed.blocker?.message).toMatch(/^12 objects are still waiting to sync/);

    const resumed = await m.prepare();
    expect(resumed.outcome, JSON.stringify(resumed.blocker)).toBe('ready');
    expect(resumed.steps[0]).toEqual({
      step: 'check',
      detail: 'checked again on resume: ready objects synced; nothing outstanding',
    });
    const [synced] = await m.world.db.sql<{ n: number }[]>`
      select count(*)::int as n from sync_ledger where state = 'REPORTED' and outcome = 'success'`;
    expect(synced!.n).toBe(12);
  });

  it('after the switch, a job addressed to the connection left runs for the new one', async () => {
    const source = await m.fresh();
    const prepared = await m.prepare();
    const target = prepared.targetConnectionId!;
    await m.world.control('POST', `/__stub/connections/${target}/switch`);
    await m.world.seed({ ...transactionSeed(82, 8), append: true });
    const q = start(['objectSync']);

    const data: SyncObjectsPayload = { connectionId: source, kind: 'transactions', trigger: 'cron' };
    const job = await q.objectSync.add('sync transactions', data);
    await waitFor(async () => ['completed', 'failed'].includes(await job.getState()), {
      timeoutMs: 60_000,
      what: 'the sync job to end',
    });
    expect(await job.getState()).toBe('completed');
    const rows = await m.world.db.sql<{ connection_id: string; n: number }[]>`
      select connection_id, count(*)::int as n from sync_ledger group by connection_id`;
    expect(rows).toEqual([{ connection_id: target, n: 8 }]);
    const [run] = await m.world.db.sql<{ connection_id: string }[]>`
      select connection_id from runs where kind = 'transactions' order by id desc limit 1`;
    expect(run?.connection_id).toBe(target);
    const [migration] = await m.world.db.sql`select state from connection_migrations`;
    expect(migration?.state).toBe('switched');
  });
});
