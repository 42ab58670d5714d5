import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { PlatformClient } from '../../../../src/platform/index.ts';
import { okValues } from '../../../../src/platform/index.ts';
import { STEPS, type StepName } from '../../../../src/sync/connection-migration/index.ts';
import type { PrepareResult } from '../../../../src/sync/connection-migration/types.ts';
import { chartDifferences } from '../mirror/support/compare.ts';
import { crashingPlatform, SimulatedCrash } from '../mirror/support/crashing-platform.ts';
import { PROVIDER, useMigrationWorld } from './support/world.ts';

const m = useMigrationWorld();

/** The same end state whatever was interrupted: one connection, one migration, one backup. */
async function expectOneCleanMigration(source: string, result: PrepareResult, activeBefore: unknown) {
  const all = okValues(await m.platform.connection.all());
  const created = all.filter((c) => c.remote_provider_name === PROVIDER);
  expect(created.map((c) => c.id)).toEqual([result.targetConnectionId]);
  expect(created[0]).toMatchObject({ is_active: false, is_ready_to_migrate: true, connection_type: 'API' });
  expect(await chartDifferences(await m.chart(created[0]!.id), m.world.erp)).toEqual([]);
  expect(await m.chart(source)).toEqual(activeBefore);
  const counts = await m.world.db.sql<{ migrations: number; backups: number; targets: number }[]>`
    select (select count(*)::int from connection_migrations) as migrations,
      (select count(*)::int from chart_backups) as backups,
      (select count(*)::int from connections where role = 'migration_target') as targets`;
  expect(counts[0]).toEqual({ migrations: 1, backups: 1, targets: 1 });
  const files = (await readdir(m.backupDir)).filter((f) => f.startsWith(source));
  expect(files).toHaveLength(1);
  expect(files[0]).toMatch(/\.json$/);
}

function crashAt(step: StepName, phase: 'applied' | 'recorded') {
  return (at: StepName, now: 'applied' | 'recorded') => {
    if (at === step && now === phase) throw new SimulatedCrash(`stopped after ${step} (${phase})`);
  };
}

describe('killed after each step and run again (resumable, idempotent; docs/platform.md G30, F6, F7)', () => {
  for (const step of STEPS) {
    for (const phase of ['applied', 'recorded'] as const) {
      it(`stopped after ${step}, ${phase === 'applied' ? 'before its state was recorded' : 'once recorded'}: same end state, no duplicates`, async () => {
        const source = await m.fresh();
        const activeBefore = await m.chart(source);
        await expect(m.prepare({ checkpoint: crashAt(step, phase) })).rejects.toBeInstanceOf(SimulatedCrash);

        const result = await m.prepare();

        // Stopped after the last step once recorded: the work was complete, the re-run says so.
        const finished = step === 'ready' && phase === 'recorded';
        expect(result.outcome, JSON.stringify(result.blocker)).toBe(finished ? 'unchanged' : 'ready');
        if (!finished) expect(result.notes[0]).toMatch(/^Resuming migration #1 from state /);
        await expectOneCleanMigration(source, result, activeBefore);
        expect((await m.prepare()).outcome).toBe('unchanged');
      });
    }
  }

  it('stopped right after ready-to-migrate, and the customer switched before the re-run: recorded as switched', async () => {
    await m.fresh();
    let target = '';
    await expect(
      m.prepare({
        checkpoint: async (step, phase) => {
          if (step !== 'ready' || phase !== 'applied') return;
          target = okValues(await m.platform.connection.all()).find((c) => c.is_ready_to_migrate)!.id;
          throw new SimulatedCrash('stopped after the ready-to-migrate call');
        },
      }),
    ).rejects.toBeInstanceOf(SimulatedCrash);
    await m.world.control('POST', `/__stub/connections/${target}/switch`);

    const result = await m.prepare();
    expect(result.state).toBe('switched');
    expect(result.notes.join('\n')).toContain(`already switched to connection ${target}`);
    expect((await m.prepare()).outcome).toBe('unchanged');
  });

  it('killed in the middle of the preload (uploads applied, not recorded), then run again: F12 adoption, no duplicates', async () => {
    const source = await m.fresh();
    const activeBefore = await m.chart(source);
    for (const [at, when] of [
      [2, 'after'],
      [5, 'after'],
      [3, 'before'],
    ] as const) {
      const crashing = crashingPlatform(m.platform, at, when);
      const platform = new Proxy(m.platform, {
        get: (target, property, receiver) =>
          property === 'chart' ? crashing.chart : Reflect.get(target, property, receiver),
      }) as PlatformClient;
      await expect(m.prepare({}, { platform })).rejects.toBeInstanceOf(SimulatedCrash);
    }
    const result = await m.prepare();
    expect(result.outcome, JSON.stringify(result.blocker)).toBe('ready');
    await expectOneCleanMigration(source, result, activeBefore);
  });
});
