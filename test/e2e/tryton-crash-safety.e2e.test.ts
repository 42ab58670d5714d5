import { describe, expect, it } from 'vitest';
import { readBooks } from '../support/tryton/books-check.ts';
import { type ChildExit, type SyncChildOptions, startSyncChild } from '../support/tryton/run-sync-child.ts';
import { useTrytonSyncWorld } from '../support/tryton/tryton-world.ts';
import { requireTryton } from '../support/tryton/use-tryton.ts';

await requireTryton();

interface Effects {
  summary: { synced_more_than_once: unknown[] };
}

describe('crash safety with Tryton', () => {
  const world = useTrytonSyncWorld();

  const runChild = (options: SyncChildOptions = {}): Promise<ChildExit> =>
    startSyncChild(world, options).exit;

  it('kill -9 between the Tryton write and the platform report, then restart: each object once in Tryton and on the platform', async () => {
    await world.seed({
      seed: 31,
      entities: 1,
      transactions: 80,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 40,
      ready_fraction: 1,
    });
    // Three kills exactly between a write Tryton committed and its report to the platform (the
    // first writes are the merchants' new vendors, one per child)...
    for (let i = 0; i < 3; i++) {
      const result = await runChild({ afterErpWrite: true });
      expect(result.wrote, result.stderr).toBe(true);
      expect(result.signal).toBe('SIGKILL');
    }
    // ...and a few at random moments of writing objects (mid-batch, between creating and posting
    // a record, after posting). Each child first waits out the writes the last one was killed in
    // (writeSettleMs), so the moment is timed from its first batch, not from its start.
    for (let i = 0; i < 3; i++) {
      const result = await runChild({ afterWritingMs: Math.floor(Math.random() * 4_000) });
      if (result.signal !== 'SIGKILL') expect(result.code, result.stderr).toBe(0);
    }
    // Two clean runs: a bill payment the killed run left claimed waits for its bill's result to
    // be reported, and runs on the next sync once the platform shows the bill synced (apply-page.ts).
    const final = await runChild();
    expect(final.code, final.stderr).toBe(0);
    const second = await runChild();
    expect(second.code, second.stderr).toBe(0);

    const { sql } = world.db;
    const pending =
      await sql`select state, count(*)::int as n from sync_ledger where state <> 'REPORTED' group by state`;
    expect(
      pending,
      `nothing left pending in the sync ledger; the clean runs said:\n${final.stdout}${second.stdout}`,
    ).toEqual([]);
    const effects = await world.control<Effects>(
      'GET',
      '/__stub/effects?include=summary&summary=true&limit=1',
    );
    expect(effects.summary.synced_more_than_once, 'marked on the platform at most once').toEqual([]);

    const books = await readBooks(world.books.models);
    expect(books.duplicates, 'each object in Tryton once').toEqual([]);
    expect(books.notPosted, 'no draft left behind').toEqual([]);
    expect(books.unbalanced).toEqual([]);
    const successes = await sql`
      select sync_type, object_id, reference_id from sync_ledger where outcome = 'success'`;
    const references = new Set([...books.records.values()].flat());
    for (const row of successes)
      expect(references.has(row.reference_id as string), `${row.object_id}`).toBe(true);
    expect(books.moveCount + books.invoiceCount, 'every success reported is one Tryton record').toBe(
      successes.length,
    );
  }, 600_000);
});
