import { describe, expect, it } from 'vitest';
import { readBooks } from '../support/tryton/books-check.ts';
import { startHoldingProxy } from '../support/tryton/holding-proxy.ts';
import { startSyncChild } from '../support/tryton/run-sync-child.ts';
import { useTrytonSyncWorld } from '../support/tryton/tryton-world.ts';
import { requireTryton } from '../support/tryton/use-tryton.ts';

await requireTryton();

/** The adapter's call timeout here, and so how long the next run lets an interrupted call settle. */
const SETTLE_MS = 15_000;
/** When Tryton carries out the killed run's call, unless the next run looks before (see below). */
const LATE_BY_MS = 4_000;

describe('a Tryton write that lands after its caller died', () => {
  const world = useTrytonSyncWorld();

  it('the next run waits writeSettleMs from the interrupted claim, finds the late records and finishes them: nothing twice', async () => {
    await world.seed({
      seed: 41,
      entities: 1,
      transactions: 16,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 0,
      ready_fraction: 1,
    });
    // Tryton gets the first run's first batch of moves only after that run is dead: a timer sends
    // it on, or the next run's look-up of moves does, right after Tryton answered the look-up.
    // Without the wait, that look-up comes first, finds nothing, and the moves are made twice.
    const proxy = await startHoldingProxy(world.tryton.url, {
      hold: 'model.account.move.create',
      releaseAfter: 'model.account.move.search_read',
    });
    try {
      const first = startSyncChild(world, { trytonUrl: proxy.url, trytonTimeoutMs: SETTLE_MS });
      await Promise.race([proxy.held, first.exit]);
      first.kill();
      expect((await first.exit).signal, 'killed while Tryton held its create').toBe('SIGKILL');

      const next = startSyncChild(world, { trytonUrl: proxy.url, trytonTimeoutMs: SETTLE_MS });
      const late = new Promise<unknown>((resolve) =>
        setTimeout(() => resolve(proxy.release()), LATE_BY_MS).unref(),
      );
      const result = await next.exit;
      expect(result.code, result.stderr).toBe(0);

      // The killed run's call was carried out: its drafts are the records the objects have now.
      const answer = (await late) as { result?: number[] };
      expect(answer.result?.length).toBeGreaterThan(0);
      const books = await readBooks(world.books.models);
      expect(books.duplicates, 'each object in Tryton once').toEqual([]);
      expect(books.notPosted, 'the late drafts were posted').toEqual([]);
      const moves = new Set([...books.records.values()].flat());
      for (const id of answer.result!) expect(moves.has(`account.move,${id}`), `move ${id}`).toBe(true);

      const { sql } = world.db;
      const pending = await sql`select count(*)::int as n from sync_ledger where state <> 'REPORTED'`;
      expect(pending[0]!.n, 'nothing left pending').toBe(0);
      const [successes] = await sql`select count(*)::int as n from sync_ledger where outcome = 'success'`;
      expect(books.moveCount, 'every success reported is one Tryton move').toBe(successes!.n);
      expect(result.stderr, 'the wait is explained in the log').toMatch(/interrupted run was writing/);
    } finally {
      await proxy.close();
    }
  }, 180_000);
});
