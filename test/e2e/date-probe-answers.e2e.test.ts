import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/**
 * Date probes the reader cannot use, through the real binary (docs/platform.md F28, F4): a
 * `from_date` probe answered with an empty page that still points onward says nothing about where
 * the backlog ends, so the run reads every ready transaction the plain way instead of taking the
 * empty page for "nothing from here on".
 */
const world = useSyncWorld();
const redis = useTestRedis();

const cli = (...args: string[]) => runCli(args, { ...worldEnv(world, redis), LOG_LEVEL: 'warn' });

interface Mark {
  object_id: string;
  sync_type: string;
  result: string;
}

describe('date probes answered with an empty page that points onward (docs/platform.md F28)', () => {
  it('F28: sync transactions reads and posts all 180 ready transactions in one run, with a warning', async () => {
    // An old backlog (2024, the stub's default dates): the reader probes where it ends.
    const seeded = (await world.seed({
      seed: 55,
      transactions: 180,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 0,
      ready_fraction: 1,
      synced_fraction: 0,
      uncoded_fraction: 0,
      unknown_coding_fraction: 0,
      sync_disabled_fraction: 0,
    })) as { ready: { transaction: number } };
    expect(seeded.ready.transaction).toBe(180);
    await world.control('PUT', '/__stub/faults', { empty_probe_pages: ['/transactions'] });
    try {
      const result = await cli('sync', 'transactions', '--json');
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        /date probe .*answered unusably.*one cursor is reading every ready object/,
      );
      const [summary] = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as {
        kind: string;
        read: number;
        posted: number;
      }[];
      expect(summary!.kind).toBe('transactions');
      expect(summary!.read).toBe(180);
      expect(summary!.posted).toBe(180);

      const { marks } = await world.control<{ marks: Mark[] }>(
        'GET',
        '/__stub/effects?include=marks&limit=100000',
      );
      const synced = new Set(
        marks
          .filter((m) => m.sync_type === 'TRANSACTION_SYNC' && m.result === 'SYNCED')
          .map((m) => m.object_id),
      );
      expect(synced.size).toBe(180);
      const [posted] = await world.db.sql<{ n: number }[]>`
        select count(distinct source_object_id)::int as n from ${world.db.sql(world.ledgerSchema)}.journal_entries`;
      expect(posted!.n).toBe(180);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });
});
