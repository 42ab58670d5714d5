import { describe, expect, it } from 'vitest';
import { CardTransactionInput } from '../../../../src/erp/index.ts';
import { allocate, toMinorUnits } from '../../../../src/money.ts';
import type { Transaction } from '../../../../src/platform/index.ts';
import { MappingProblem } from '../../../../src/sync/map/mapping-problem.ts';
import { mapBill, mapBillPayment, mapTransaction } from '../../../../src/sync/map/objects.ts';
import { bill as paidBill, sel, transaction } from '../../../support/platform-objects.ts';

const tx = (over: Partial<Transaction> = {}): Transaction =>
  transaction({
    accounting_field_selections: [sel('GL_ACCOUNT', '6100'), sel('OTHER', 'D-ENG', 'department')],
    ...over,
  });

describe('money', () => {
  it('docs/platform.md G1: minor units by the currency exponent, exact for decimal amounts', () => {
    expect(toMinorUnits(0.3, 2)).toBe(30);
    // A float whose text has more decimals than cents is refused, never rounded (0.30000000000000004).
    expect(() => toMinorUnits(0.1 + 0.2, 2)).toThrow(/more decimals than its currency has \(2\)/);
    expect(toMinorUnits(-19.99, 2)).toBe(-1999);
    expect(toMinorUnits(1234, 0)).toBe(1234);
    expect(toMinorUnits(1.234, 3)).toBe(1234);
  });
  it('allocation sums exactly to the total', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([33, 33, 34]);
    expect(allocate(-100, [1, 1, 1]).reduce((a, b) => a + b, 0)).toBe(-100);
  });
});

describe('platform objects to ERP postings (F16)', () => {
  it('a card transaction: GL account, dimensions, date, minor units; passes the ERP input schema', () => {
    const input = mapTransaction(tx());
    expect(input).toMatchObject({
      kind: 'card_transaction',
      objectId: 'tx-1',
      date: '2026-03-04',
      currency: { code: 'USD', exponent: 2 },
      totalMinor: 1234,
      lines: [{ glAccountId: '6100', dimensions: { department: 'D-ENG' }, amountMinor: 1234 }],
    });
    expect(CardTransactionInput.safeParse(input).success).toBe(true);
  });

  it('a refund keeps its negative sign; split line items keep their own codings and sum to the total', () => {
    const input = mapTransaction(
      tx({
        amount: -30,
        line_items: [
          { amount: -10.01, memo: 'a', accounting_field_selections: [sel('GL_ACCOUNT', '6200')] },
          { amount: -19.99, memo: 'b', accounting_field_selections: [sel('OTHER', 'D-OPS', 'department')] },
        ],
      }),
    );
    expect(input.totalMinor).toBe(-3000);
    expect(input.lines.map((l) => [l.glAccountId, l.amountMinor, l.dimensions.department])).toEqual([
      ['6200', -1001, 'D-ENG'],
      ['6100', -1999, 'D-OPS'],
    ]);
    expect(CardTransactionInput.safeParse(input).success).toBe(true);
  });

  it('JPY has no minor unit', () => {
    expect(mapTransaction(tx({ amount: 5000, currency_code: 'JPY' })).totalMinor).toBe(5000);
  });

  it('an uncoded transaction is a user-actionable problem naming the fix', () => {
    const problem = (() => {
      try {
        mapTransaction(tx({ accounting_field_selections: [] }));
      } catch (e) {
        return e as MappingProblem;
      }
    })();
    expect(problem).toBeInstanceOf(MappingProblem);
    expect(problem?.toErrorInfo().message).toMatch(/^Action needed: .*GL account.*Fix: Choose a GL account/);
  });

  it('a bill takes its vendor from the MERCHANT selection, and its payment names the bill', () => {
    // A paid EUR bill INV-7 of 500.00 from vendor V-9, coded to GL account 6300.
    const bill = paidBill();
    expect(mapBill(bill)).toMatchObject({
      vendorId: 'V-9',
      totalMinor: 50000,
      lines: [{ glAccountId: '6300', amountMinor: 50000 }],
    });
    expect(mapBillPayment(bill)).toMatchObject({
      kind: 'bill_payment',
      billObjectId: 'bill-1',
      date: '2026-02-10',
      totalMinor: 50000,
    });
  });
});
