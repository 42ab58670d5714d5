import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/**
 * What the client remembers it sent belongs to the worker's database (docs/decisions.md
 * "Idempotency records live with the outbox"). A platform sandbox reset under the same
 * connection, whose objects come back with the same ids, and a fresh worker database beside the
 * Redis of the earlier run: every result batch is posted again, none taken as already sent.
 */
const world = useSyncWorld();
const redis = useTestRedis();

const SEED = { seed: 3401, transactions: 0, reimbursements: 0, transfers: 60, cashbacks: 0, bills: 0 };

const transferMarks = async () =>
  (
    await world.control<{ marks: { sync_type: string; object_id: string }[] }>(
      'GET',
      '/__stub/effects?include=marks&limit=100000',
    )
  ).marks.filter((m) => m.sync_type === 'TRANSFER_SYNC');

describe('a fresh worker database beside an old Redis', () => {
  it('posts every batch after a sandbox reset that brings back the same ids', async () => {
    await world.seed(SEED);
    const first = await runCli(['sync', 'transfers'], worldEnv(world, redis));
    expect([0, 3], first.stderr).toContain(first.code);
    const firstMarks = await transferMarks();
    expect(firstMarks.length).toBeGreaterThan(0);

    // The sandbox is reset: same connection id, same objects, nothing remembered of the first run.
    await world.control('POST', '/__stub/reset');
    await world.control('POST', '/__stub/connections', {
      id: world.connectionId,
      remote_provider_name: 'Built-in ledger',
    });
    await world.seed(SEED);
    expect(await transferMarks()).toEqual([]);

    // A fresh worker database (its own schema), the same Redis and the same ERP books.
    const fresh = world.db.newSchema('fresh_worker');
    const second = await runCli(['sync', 'transfers', '--json'], {
      ...worldEnv(world, redis),
      DATABASE_SCHEMA: fresh,
    });
    expect([0, 3], second.stderr).toContain(second.code);
    const secondMarks = await transferMarks();
    expect(new Set(secondMarks.map((m) => m.object_id))).toEqual(new Set(firstMarks.map((m) => m.object_id)));
  });
});
