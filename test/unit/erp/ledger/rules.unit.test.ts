import { describe, expect, it } from 'vitest';
import type { PlannedEntry } from '../../../../src/erp/core/plan.ts';
import type { PostingInput } from '../../../../src/erp/types.ts';
import { card, codedLine, header, ledgerContext, planPosting } from './ledger-context.ts';

function planned(input: PostingInput, ctx = ledgerContext()): PlannedEntry {
  const result = planPosting(input, ctx);
  if (!result.ok) throw new Error(result.error.message);
  expect(result.value.lines.reduce((s, l) => s + l.amount, 0)).toBe(0);
  return result.value;
}

const sides = (entry: PlannedEntry) => entry.lines.map((l) => [l.accountId, l.amount]);

describe('posting rules', () => {
  it('card transaction: debit the coded account, credit the card liability', () => {
    expect(sides(planned(card([codedLine(4_250)])))).toEqual([
      ['gl-6020', 4_250],
      ['gl-2100', -4_250],
    ]);
  });

  it('card refund: the same entry with every side flipped', () => {
    expect(sides(planned(card([codedLine(-4_250)])))).toEqual([
      ['gl-6020', -4_250],
      ['gl-2100', 4_250],
    ]);
  });

  it('split lines with a tax code: net per line, tax on the rate’s account', () => {
    const entry = planned(
      card([codedLine(12_000, { taxCodeId: 'tc-vat20' }), codedLine(3_000, { glAccountId: 'gl-6040' })]),
    );
    expect(sides(entry)).toEqual([
      ['gl-6020', 10_000],
      ['gl-1400', 2_000],
      ['gl-6040', 3_000],
      ['gl-2100', -15_000],
    ]);
    expect(entry.lines[1]).toMatchObject({
      taxCodeId: 'tc-vat20',
      taxRateId: 'tr-20',
      dimensions: { department: 'd-sales' },
    });
  });

  it('reverse charge: input and output VAT cancel, the expense takes the gross', () => {
    expect(sides(planned(card([codedLine(10_000, { taxCodeId: 'tc-rc20' })])))).toEqual([
      ['gl-6020', 10_000],
      ['gl-1400', 2_000],
      ['gl-2310', -2_000],
      ['gl-2100', -10_000],
    ]);
  });

  it('uses the card program’s own liability account when the object names one', () => {
    const entry = planned(card([codedLine(100)], { liabilityAccountId: 'gl-2110' } as Partial<PostingInput>));
    expect(entry.lines.at(-1)?.accountId).toBe('gl-2110');
  });

  it('reimbursement: credit the employee payable', () => {
    const input = {
      kind: 'reimbursement',
      ...header,
      totalMinor: 1_899,
      lines: [codedLine(1_899)],
    } as PostingInput;
    expect(sides(planned(input))).toEqual([
      ['gl-6020', 1_899],
      ['gl-2200', -1_899],
    ]);
  });

  it('bill: credit accounts payable with the vendor on the line, and record the bill', () => {
    const input = {
      kind: 'bill',
      ...header,
      totalMinor: 50_000,
      vendorId: 'ven-1',
      invoiceNumber: 'INV-9',
      dueDate: '2025-02-15',
      lines: [codedLine(50_000)],
    } as PostingInput;
    const entry = planned(input);
    expect(sides(entry)).toEqual([
      ['gl-6020', 50_000],
      ['gl-2000', -50_000],
    ]);
    expect(entry.lines[1]?.vendorId).toBe('ven-1');
    expect(entry.bill).toEqual({
      vendorId: 'ven-1',
      invoiceNumber: 'INV-9',
      dueDate: '2025-02-15',
      total: 50_000,
      payableAccountId: 'gl-2000',
    });
  });

  it('bill payment: debit accounts payable, credit the bank, and count it against the bill', () => {
    const ctx = ledgerContext();
    const input = {
      kind: 'bill_payment',
      ...header,
      totalMinor: 7_500,
      billObjectId: 'bill-1',
    } as PostingInput;
    const entry = planned(input, ctx);
    expect(sides(entry)).toEqual([
      ['gl-2000', 7_500],
      ['gl-1000', -7_500],
    ]);
    expect(entry.payment).toEqual({ billId: '41', amount: 7_500 });
    expect(ctx.bills.get('bill-1')?.paid).toBe(10_000);
  });

  it('transfer: debit the card liability, credit the bank', () => {
    const input = { kind: 'transfer', ...header, totalMinor: 500_000 } as PostingInput;
    expect(sides(planned(input))).toEqual([
      ['gl-2100', 500_000],
      ['gl-1000', -500_000],
    ]);
  });

  it('cashback: debit the card liability, credit cashback income', () => {
    const input = { kind: 'cashback', ...header, totalMinor: 1_234 } as PostingInput;
    expect(sides(planned(input))).toEqual([
      ['gl-2100', 1_234],
      ['gl-4900', -1_234],
    ]);
  });

  it('drops zero lines and keeps the entry for the default entity', () => {
    const entry = planned(card([codedLine(0), codedLine(100)]));
    expect(entry.lines).toHaveLength(2);
    expect(entry.entityId).toBe('ent-us');
  });
});
