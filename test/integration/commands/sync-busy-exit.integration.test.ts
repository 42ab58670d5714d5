import type { ReservedSql } from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.ts';
import { useTestRedis } from '../../support/redis.ts';
import { useSyncWorld, worldEnv } from '../../support/sync-world.ts';

/**
 * README "Exit codes": `sync` exits 69 and names what it skipped when another process was
 * syncing a kind (the kind lock of src/sync/advisory-lock.ts), instead of exiting 0 as if everything
 * had been synced. The other process is played by a session advisory lock of the same name.
 */
const world = useSyncWorld();
const redis = useTestRedis();

const cli = (...args: string[]) =>
  runCli(args, {
    ...worldEnv(world, redis),
  });

const summaries = (stdout: string) =>
  JSON.parse(stdout.trim().split('\n').at(-1)!) as { kind?: string; busy: boolean; read?: number }[];

const held: ReservedSql[] = [];

/** Holds the lock `syncObjects` takes for a kind, on a connection of its own, as a worker would. */
async function holdKind(kind: string): Promise<void> {
  const connection = await world.db.sql.reserve();
  held.push(connection);
  const name = `ledgersync:sync:${world.connectionId}:${kind}`;
  const [row] = await connection<
    { locked: boolean }[]
  >`select pg_try_advisory_lock(hashtext(${name})) as locked`;
  expect(row?.locked).toBe(true);
}

async function releaseAll(): Promise<void> {
  for (const connection of held.splice(0)) {
    await connection`select pg_advisory_unlock_all()`;
    connection.release();
  }
}

afterAll(releaseAll);

describe('sync while another process holds a kind', () => {
  it('sync all exits 69 and names the kinds it skipped; the other kinds are synced', async () => {
    await world.seed({
      seed: 17,
      transactions: 40,
      reimbursements: 10,
      transfers: 5,
      cashbacks: 5,
      bills: 20,
    });
    await holdKind('transactions');
    await holdKind('bills');
    const result = await cli('sync', 'all', '--json');
    expect(result.code, result.stderr).toBe(69);
    expect(result.stderr).toContain('skipped transactions, bills: another process was already syncing them');
    expect(result.stderr).toContain('Run the command again once that sync has finished.');
    const byKind = new Map(summaries(result.stdout).map((s) => [s.kind ?? 'coa', s]));
    expect(byKind.get('transactions')?.busy).toBe(true);
    expect(byKind.get('bills')?.busy).toBe(true);
    expect(byKind.get('reimbursements')).toMatchObject({ busy: false });
    expect(byKind.get('reimbursements')?.read).toBeGreaterThan(0);
  });

  it('a single kind: exit 69 and the text says so; once the lock is released the same command syncs', async () => {
    const busy = await cli('sync', 'transactions');
    expect(busy.code, busy.stderr).toBe(69);
    expect(busy.stdout).toContain('transactions: another sync of this kind is running; nothing done');
    expect(busy.stderr).toContain('skipped transactions: another process was already syncing it');
    await releaseAll();
    const after = await cli('sync', 'transactions', '--json');
    expect([0, 3], after.stderr).toContain(after.code);
    expect(summaries(after.stdout)[0]).toMatchObject({ kind: 'transactions', busy: false });
    expect(summaries(after.stdout)[0]!.read).toBeGreaterThan(0);
  });
});
