import { UnrecoverableError } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { processMigration } from '../../../jobs/connection-migration.ts';
import { fakeJob } from '../../support/fake-job.ts';
import { PROVIDER, useMigrationWorld } from '../sync/connection-migration/support/world.ts';

const m = useMigrationWorld();

describe('processMigration (BullMQ processor for `migrate prepare`)', () => {
  it('refuses a payload that fails its schema without retrying', async () => {
    const { job } = fakeJob({ provider: ' ', trigger: 'cli' });
    await expect(processMigration(job, m.deps())).rejects.toBeInstanceOf(UnrecoverableError);
  });

  it('prepares the migration, reports each step as progress and records the run', async () => {
    const source = await m.fresh();
    const { job, progress } = fakeJob({ provider: PROVIDER, backupDir: m.backupDir, trigger: 'cli' });
    const result = await processMigration(job, m.deps());
    expect(result.outcome).toBe('ready');
    expect(progress.at(-1)).toMatchObject({
      step: 'ready',
      done: ['check', 'backup', 'create_target', 'preload', 'verify', 'ready'],
    });
    const [run] = await m.world.db.sql`select kind, status, trigger from runs order by id desc limit 1`;
    expect(run).toEqual({ kind: 'migration', status: 'succeeded', trigger: 'cli' });
    // A repeated delivery of the job (stalled and recovered) changes nothing.
    expect((await processMigration(fakeJob(job.data).job, m.deps())).outcome).toBe('unchanged');
    expect((await m.platform.connection.getActive())!.id).toBe(source);
  });

  it('a precondition not met fails the job without retrying, with the message that says what to do', async () => {
    await m.fresh();
    await m.platform.connection.unlink();
    const { job } = fakeJob({ provider: PROVIDER, backupDir: m.backupDir, trigger: 'cli' });
    const failure = processMigration(job, m.deps());
    await expect(failure).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(failure).rejects.toThrow(
      /no active accounting connection apart from the new one[\s\S]*What to do:/,
    );
  });
});
