import { beforeAll, describe, expect, it } from 'vitest';
import { createErp, type ErpAdapter } from '../../../../src/erp/index.ts';
import { chartSummary } from '../../../../src/erp/ledger/chart-summary.ts';
import { seedLedger } from '../../../../src/erp/ledger/seed.ts';
import { ledgerTables } from '../../../../src/erp/ledger/tables.ts';
import { trialBalance, trialBalanceTotals } from '../../../../src/erp/ledger/trial-balance.ts';
import { postOne } from '../../../../src/erp/post-one.ts';
import type { BillInput, BillPaymentInput } from '../../../../src/erp/types.ts';
import { useTestDatabase } from '../../../support/db.ts';
import { generateMix } from '../../../support/erp-sample-mix.ts';

const db = useTestDatabase({ migrate: false });
let schema: string;
let erp: ErpAdapter;

beforeAll(async () => {
  schema = db.newSchema('ledger');
  await seedLedger(db.sql, schema, { seed: 2 });
  erp = createErp({ kind: 'ledger', sql: db.sql, schema });
});

const header = {
  date: '2025-03-03',
  entityId: null,
  currency: { code: 'USD', exponent: 2 },
  memo: '',
  counterpart: null,
};

describe('concurrent posting', () => {
  it('writes each object once when six callers post the same 300 objects at the same time', async () => {
    const mix = generateMix(await chartSummary(db.sql, schema), { count: 300, seed: 5, idPrefix: 'race' });
    const calls = await Promise.all(Array.from({ length: 6 }, () => erp.postMany(mix)));
    const t = ledgerTables(db.sql, schema);
    const [counts] = await db.sql`
      select (select count(*)::int from ${t.postings} where object_id like 'race-%') as postings,
             (select count(*)::int from ${t.journal_entries} where source_object_id like 'race-%') as entries`;
    expect(counts).toEqual({ postings: 300, entries: mix.filter((m) => m.kind !== 'vendor').length });
    mix.forEach((item, i) => {
      const results = calls.map((c) => c[i]!);
      expect(
        results.filter((r) => !r.ok),
        item.objectId,
      ).toEqual([]);
      expect(new Set(results.map((r) => (r.ok ? r.referenceId : ''))).size).toBe(1);
      expect(results.filter((r) => r.ok && !r.replayed)).toHaveLength(1);
    });
    expect([...trialBalanceTotals(await trialBalance(db.sql, schema)).values()]).toEqual([0]);
  });

  it('lets concurrent payments of one bill pay no more than its total', async () => {
    const bill: BillInput = {
      kind: 'bill',
      ...header,
      objectId: 'race-bill',
      totalMinor: 1_000,
      vendorId: 'ven-00001',
      invoiceNumber: 'INV-R',
      dueDate: null,
      lines: [{ amountMinor: 1_000, glAccountId: 'gl-6080', dimensions: {}, memo: '' }],
    };
    expect((await postOne(erp, bill)).ok).toBe(true);
    const payment = (n: number): BillPaymentInput => ({
      kind: 'bill_payment',
      ...header,
      objectId: `race-pay-${n}`,
      totalMinor: 300,
      billObjectId: 'race-bill',
    });
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => postOne(erp, payment(n))));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    const refused = results.filter((r) => !r.ok);
    expect(refused.map((r) => (r.ok ? '' : r.error.code))).toEqual(['BILL_OVERPAID', 'BILL_OVERPAID']);
    const t = ledgerTables(db.sql, schema);
    const [row] = await db.sql`
      select b.paid::int from ${t.bills} b join ${t.postings} p on p.id = b.id where p.object_id = 'race-bill'`;
    expect(row!.paid).toBe(900);
  });
});
