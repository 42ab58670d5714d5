import { beforeAll, describe, expect, it } from 'vitest';
import { createErp, type ErpAdapter } from '../../../../src/erp/index.ts';
import { chartSummary } from '../../../../src/erp/ledger/chart-summary.ts';
import { LedgerAdmin } from '../../../../src/erp/ledger/ledger-admin.ts';
import { seedLedger } from '../../../../src/erp/ledger/seed.ts';
import { ledgerTables } from '../../../../src/erp/ledger/tables.ts';
import {
  formatTrialBalance,
  trialBalance,
  trialBalanceTotals,
} from '../../../../src/erp/ledger/trial-balance.ts';
import { postOne } from '../../../../src/erp/post-one.ts';
import { useTestDatabase } from '../../../support/db.ts';
import { generateMix } from '../../../support/erp-sample-mix.ts';
import { cardTransaction, codedLine } from '../../../support/ledger-inputs.ts';

const db = useTestDatabase({ migrate: false });
let schema: string;
let erp: ErpAdapter;
let admin: LedgerAdmin;

const line = codedLine;
const card = cardTransaction;

beforeAll(async () => {
  schema = db.newSchema('ledger');
  await seedLedger(db.sql, schema, { seed: 4 });
  erp = createErp({ kind: 'ledger', sql: db.sql, schema });
  admin = new LedgerAdmin(db.sql, schema);
});

describe('ledger writes', () => {
  it('isolates an item the database refuses unexpectedly, and posts the rest of its batch', async () => {
    const t = ledgerTables(db.sql, schema);
    // A fault only the database sees: entries with this memo fail on insert.
    await db.sql.unsafe(`
      create function ${schema}.explode() returns trigger language plpgsql as $$
      begin raise exception 'simulated fault'; end $$;
      create trigger explode before insert on ${schema}.journal_entries
        for each row when (new.memo = 'explode') execute function ${schema}.explode();`);
    try {
      const items = Array.from({ length: 9 }, (_, i) =>
        card(`fault-${i}`, i === 5 ? { memo: 'explode' } : {}),
      );
      const results = await erp.postMany(items);
      expect(results.map((r) => r.ok)).toEqual([true, true, true, true, true, false, true, true, true]);
      expect(results[5]).toMatchObject({
        ok: false,
        error: { category: 'needs_integrator', code: 'ERP_UNEXPECTED' },
      });
      const [row] = await db.sql`select count(*)::int as n from ${t.postings} where object_id like 'fault-%'`;
      expect(row!.n).toBe(8);
    } finally {
      await db.sql.unsafe(`drop trigger explode on ${schema}.journal_entries`);
    }
  });

  it('posts a refused object once the bookkeeper reactivates its account', async () => {
    await admin.setAccountActive('gl-6040', false);
    const first = await postOne(erp, card('fixed-later'));
    expect(first).toMatchObject({ ok: false, error: { code: 'ACCOUNT_INACTIVE' } });
    await admin.setAccountActive('gl-6040', true);
    expect(await postOne(erp, card('fixed-later'))).toMatchObject({ ok: true, replayed: false });
  });

  it('still posts to a hidden account (hidden keeps history syncing)', async () => {
    await admin.setAccountHidden('gl-6050', true);
    const result = await postOne(
      erp,
      card('hidden-ok', { lines: [line(2_500, { glAccountId: 'gl-6050' })] }),
    );
    expect(result.ok).toBe(true);
  });

  it('pays a bill in parts, then refuses paying more than is open', async () => {
    const bill = {
      kind: 'bill' as const,
      objectId: 'partial-bill',
      date: '2025-02-01',
      entityId: null,
      currency: { code: 'USD', exponent: 2 },
      totalMinor: 10_000,
      memo: '',
      counterpart: null,
      vendorId: 'ven-00002',
      invoiceNumber: 'INV-P',
      dueDate: '2025-03-01',
      lines: [line(10_000, { glAccountId: 'gl-6080' })],
    };
    const pay = (objectId: string, totalMinor: number) => ({
      kind: 'bill_payment' as const,
      objectId,
      date: '2025-02-20',
      entityId: null,
      currency: { code: 'USD', exponent: 2 },
      totalMinor,
      memo: '',
      counterpart: null,
      billObjectId: 'partial-bill',
    });
    const results = await erp.postMany([bill, pay('part-1', 6_000), pay('part-2', 4_000), pay('part-3', 1)]);
    expect(results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'ok', 'ok', 'BILL_OVERPAID']);
  });

  it('keeps each entity’s books in its own currency, each balancing to zero', async () => {
    const gbp = card('uk-1', { entityId: 'ent-uk', currency: { code: 'GBP', exponent: 2 } });
    const jpy = card('jp-1', {
      entityId: 'ent-jp',
      currency: { code: 'JPY', exponent: 0 },
      totalMinor: 3_000,
      lines: [line(3_000)],
    });
    expect((await erp.postMany([gbp, jpy])).map((r) => r.ok)).toEqual([true, true]);
    const rows = await trialBalance(db.sql, schema);
    const totals = trialBalanceTotals(rows);
    expect(totals.get('GBP')).toBe(0);
    expect(totals.get('JPY')).toBe(0);
    expect(formatTrialBalance(rows)).toMatch(/Trial balance \(JPY\)[\s\S]*Total JPY +3,000 +3,000 +0$/m);
  });

  it('gives the same results whatever the chunk size (bills and payments across chunk edges)', async () => {
    const chunked = createErp({ kind: 'ledger', sql: db.sql, schema, chunkSize: 7 });
    const mix = generateMix(await chartSummary(db.sql, schema), { count: 120, seed: 8, idPrefix: 'chunk' });
    const results = await chunked.postMany(mix);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results.map((r) => r.objectId)).toEqual(mix.map((m) => m.objectId));
  });

  it("keeps an entry's counterpart and each line's dimensions as posted, and none as none", async () => {
    const t = ledgerTables(db.sql, schema);
    const [option] = await db.sql<{ id: string }[]>`
      select id from ${t.field_options} where field_id = 'department' and active order by id limit 1`;
    const counterpart = { role: 'vendor' as const, id: 'ven-00002', name: 'Café "Zoë" \\ Sons' };
    const results = await erp.postMany([
      card('kept-coding', {
        counterpart,
        totalMinor: 3_000,
        lines: [line(1_000, { dimensions: { department: option!.id } }), line(2_000)],
      }),
      card('kept-none'),
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    const entries = await db.sql<{ source_object_id: string; counterpart: unknown }[]>`
      select source_object_id, counterpart from ${t.journal_entries}
       where source_object_id in ('kept-coding', 'kept-none') order by source_object_id`;
    expect(entries).toEqual([
      { source_object_id: 'kept-coding', counterpart },
      { source_object_id: 'kept-none', counterpart: null },
    ]);
    const lines = await db.sql<{ dimensions: unknown }[]>`
      select l.dimensions from ${t.journal_lines} l join ${t.journal_entries} e on e.id = l.entry_id
       where e.source_object_id = 'kept-coding' and l.amount > 0 order by l.line_no`;
    // The coded lines are the debits; the card's credit line carries no dimensions either.
    expect(lines.map((l) => l.dimensions)).toEqual([{ department: option!.id }, {}]);
  });
});
