import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { OBJECT_KINDS, syncObjects } from '../../src/sync/objects/index.ts';
import { readBooks } from '../support/tryton/books-check.ts';
import { useTrytonSyncWorld } from '../support/tryton/tryton-world.ts';
import { requireTryton } from '../support/tryton/use-tryton.ts';

await requireTryton();

interface Effects {
  marks: { object_id: string; sync_type: string; result: string }[];
  summary: { synced_more_than_once: unknown[] };
}

describe('object sync end to end (stub + Tryton 6.0)', () => {
  const world = useTrytonSyncWorld();

  async function runAll() {
    const summaries = [];
    for (const kind of OBJECT_KINDS) {
      const deps = {
        sql: world.db.sql,
        erp: world.erp,
        platform: world.syncPlatform,
        connectionId: world.connectionId,
        log: silentLogger,
      };
      summaries.push(await syncObjects(deps, kind, { slices: 2 }));
    }
    return summaries;
  }

  it('every kind, every decision-table row and vendor creation: synced once into Tryton or failed with a message', async () => {
    const seeded = (await world.seed({
      seed: 11,
      entities: 1,
      transactions: 150,
      reimbursements: 30,
      transfers: 12,
      cashbacks: 12,
      bills: 60,
    })) as { ready: Record<string, number> };
    const summaries = await runAll();
    const readyAtStart = Object.values(seeded.ready).reduce((a, b) => a + b, 0);
    expect(summaries.reduce((n, s) => n + s.read, 0)).toBe(readyAtStart);
    expect(summaries.find((s) => s.kind === 'transactions')?.vendorsCreated).toBeGreaterThan(0);

    const effects = await world.control<Effects>(
      'GET',
      '/__stub/effects?include=marks&summary=true&limit=100000',
    );
    expect(effects.summary.synced_more_than_once).toEqual([]);
    const marked = new Map<string, string[]>();
    for (const m of effects.marks) {
      const key = `${m.sync_type}:${m.object_id}`;
      marked.set(key, [...(marked.get(key) ?? []), m.result]);
    }
    const rows = await world.db.sql`
      select object_id, sync_type, state, outcome, reference_id, error_category, error_message from sync_ledger`;
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows) {
      const what = `${row.sync_type} ${row.object_id}`;
      expect(row.state, what).toBe('REPORTED');
      expect(marked.get(`${row.sync_type}:${row.object_id}`) ?? [], what).toEqual([
        row.outcome === 'success' ? 'SYNCED' : 'FAILED',
      ]);
      if (row.outcome === 'failure') {
        expect(row.error_category, what).toMatch(/^(user_actionable|transient|needs_integrator)$/);
        expect(row.error_message, what).toMatch(
          /^(Action needed|Temporary problem|Contact your integrator): /,
        );
      }
    }
    const succeeded = (type: string) =>
      rows.filter((r) => r.sync_type === type && r.outcome === 'success').map((r) => r.object_id as string);
    // Decision table: a paid bill never synced went in as an invoice, then as its payment.
    expect(succeeded('BILL_PAYMENT_SYNC').some((id) => succeeded('BILL_SYNC').includes(id))).toBe(true);
    for (const type of [
      'TRANSACTION_SYNC',
      'REIMBURSEMENT_SYNC',
      'TRANSFER_SYNC',
      'STATEMENT_CREDIT_SYNC',
      'BILL_SYNC',
    ]) {
      expect(succeeded(type).length, type).toBeGreaterThan(0);
    }

    // Tryton's own reads: each object once, everything posted, every move balanced.
    const books = await readBooks(world.books.models);
    expect(books.duplicates).toEqual([]);
    expect(books.notPosted).toEqual([]);
    expect(books.unbalanced).toEqual([]);
    const references = new Set([...books.records.values()].flat());
    for (const row of rows.filter((r) => r.outcome === 'success' && r.reference_id)) {
      expect(references.has(row.reference_id as string), `${row.sync_type} ${row.object_id}`).toBe(true);
    }
    console.info(
      `tryton e2e: ${rows.length} reported, ${rows.filter((r) => r.outcome === 'success').length} synced, ` +
        `${books.moveCount} moves and ${books.invoiceCount} supplier invoices in Tryton`,
    );
  }, 600_000);

  it('a second run writes nothing new to Tryton and marks nothing twice', async () => {
    const before = await readBooks(world.books.models);
    const summaries = await runAll();
    expect(summaries.reduce((n, s) => n + s.posted, 0)).toBe(0);
    const after = await readBooks(world.books.models);
    expect([after.moveCount, after.invoiceCount]).toEqual([before.moveCount, before.invoiceCount]);
    const effects = await world.control<Effects>(
      'GET',
      '/__stub/effects?include=summary&summary=true&limit=1',
    );
    expect(effects.summary.synced_more_than_once).toEqual([]);
  }, 600_000);
});
