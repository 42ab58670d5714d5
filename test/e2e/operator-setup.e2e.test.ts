import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/**
 * Setting up a customer on the built-in ledger by commands alone, as an operator (or
 * docker-compose's setup service) does: a world on the stub coded against the ledger's chart,
 * books opened for the platform's entities, then a sync that posts.
 */
const world = useSyncWorld();
const redis = useTestRedis();

const cli = (...args: string[]) =>
  runCli(args, {
    ...worldEnv(world, redis),
  });

describe('operator set-up verbs through the real binary', () => {
  it('erp seed-stub-world fills the stub with ready objects coded against the ledger chart', async () => {
    const result = await cli(
      'erp',
      'seed-stub-world',
      '--stub-url',
      world.stub.url,
      '--transactions',
      '80',
      '--json',
    );
    expect(result.code, result.stderr).toBe(0);
    const seeded = JSON.parse(result.stdout) as { ready: Record<string, number> };
    expect(seeded.ready.transaction).toBeGreaterThan(0);
  });

  it('without books for the platform entities nothing posts; erp open-books opens them and the sync posts', async () => {
    const before = await cli('sync', 'transactions', '--json');
    expect(before.code).toBe(3);
    expect(before.stdout + before.stderr).not.toMatch(/\n\s+at /);
    const [noBooks] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from sync_ledger where error_message like '%has no books%'`;
    expect(noBooks!.n).toBeGreaterThan(0);

    const opened = await cli('erp', 'open-books', '--json');
    expect(opened.code, opened.stderr).toBe(0);
    const counts = JSON.parse(opened.stdout) as { entities: number; added: number };
    expect(counts.added).toBe(counts.entities);
    expect(counts.added).toBeGreaterThan(0);
    const again = await cli('erp', 'open-books', '--json');
    expect((JSON.parse(again.stdout) as { added: number }).added).toBe(0);

    const after = await cli('sync', 'transactions', '--json');
    expect([0, 3]).toContain(after.code);
    const [posted] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from ${world.db.sql(world.ledgerSchema)}.journal_entries`;
    expect(posted!.n).toBeGreaterThan(0);
  });

  it('bad option values exit 2 with a message', async () => {
    const result = await cli('erp', 'seed-stub-world', '--stub-url', 'not a url');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/must be a URL/);
  });
});
