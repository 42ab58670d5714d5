import { describe, expect, it } from 'vitest';
import { readBatch } from '../../../src/erp/core/batch.ts';
import { parseErpWrite } from '../../../src/erp/parsed-write.ts';
import { BillInput, CardTransactionInput, ErpWrite, VendorInput } from '../../../src/erp/types.ts';

const card = {
  kind: 'card_transaction',
  objectId: 'txn-1',
  date: '2025-01-15',
  entityId: null,
  currency: { code: 'USD', exponent: 2 },
  totalMinor: 1_000,
  memo: '',
  counterpart: { role: 'card_holder', id: 'u1', name: 'Ada' },
  lines: [
    { amountMinor: 600, glAccountId: 'gl-1', dimensions: { department: 'd1' }, memo: '' },
    { amountMinor: 400, glAccountId: 'gl-2', taxCodeId: 'tc-1', dimensions: {}, memo: '' },
  ],
};

describe('input schemas', () => {
  it('accepts a split card transaction and a refund', () => {
    expect(CardTransactionInput.safeParse(card).success).toBe(true);
    const refund = {
      ...card,
      totalMinor: -1_000,
      lines: card.lines.map((l) => ({ ...l, amountMinor: -l.amountMinor })),
    };
    expect(CardTransactionInput.safeParse(refund).success).toBe(true);
  });

  it('refuses lines that do not add up to the total', () => {
    const result = CardTransactionInput.safeParse({ ...card, totalMinor: 999 });
    expect(result.error?.issues[0]?.message).toBe('line amounts must sum to totalMinor');
  });

  it('refuses fractional minor units, bad currencies, bad dates and unknown fields', () => {
    expect(CardTransactionInput.safeParse({ ...card, totalMinor: 10.5 }).success).toBe(false);
    expect(CardTransactionInput.safeParse({ ...card, currency: { code: 'usd', exponent: 2 } }).success).toBe(
      false,
    );
    expect(CardTransactionInput.safeParse({ ...card, date: '2025-13-01' }).success).toBe(false);
    expect(CardTransactionInput.safeParse({ ...card, amount: 10 }).success).toBe(false);
  });

  it('needs a positive total and a vendor on a bill', () => {
    const bill = { ...card, kind: 'bill', vendorId: 'v1', invoiceNumber: null, dueDate: null };
    expect(BillInput.safeParse(bill).success).toBe(true);
    const negative = {
      ...bill,
      totalMinor: -1_000,
      lines: bill.lines.map((l) => ({ ...l, amountMinor: -l.amountMinor })),
    };
    expect(BillInput.safeParse(negative).success).toBe(false);
    expect(BillInput.safeParse({ ...bill, vendorId: undefined }).success).toBe(false);
  });

  it('dispatches on kind', () => {
    expect(ErpWrite.parse(card).kind).toBe('card_transaction');
    expect(ErpWrite.parse({ kind: 'vendor', objectId: 'o1', name: 'Acme' }).kind).toBe('vendor');
    expect(VendorInput.safeParse({ kind: 'vendor', objectId: 'o1', name: '  ' }).success).toBe(false);
  });
});

describe('a write is read once in a process (parsed-write.ts)', () => {
  it('the value the schema returned is trusted as it is; the value it was given is read again', () => {
    const first = parseErpWrite(card);
    expect(first.success).toBe(true);
    expect(first.data).not.toBe(card);
    expect(parseErpWrite(first.data).data).toBe(first.data);
    // The input itself is never marked: reading it again gives a new value.
    const again = parseErpWrite(card);
    expect(again.data).not.toBe(card);
    expect(again.data).not.toBe(first.data);
  });

  it('a refused write is never marked: each read refuses it with its issues', () => {
    const bad = { ...card, totalMinor: 999 };
    for (let i = 0; i < 2; i++) {
      const result = parseErpWrite(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('line amounts must sum to totalMinor');
    }
  });

  it("an adapter's batch trusts a write read here and still refuses an unread bad one beside it", () => {
    const read = parseErpWrite(card).data!;
    const batch = readBatch([read, { ...card, objectId: 'txn-2', totalMinor: 999 }]);
    expect(batch.unique.map((u) => u.input)).toEqual([read]);
    expect(batch.unique[0]!.input).toBe(read);
    expect(batch.out[1]).toMatchObject({ ok: false, objectId: 'txn-2', error: { code: 'INVALID_INPUT' } });
  });
});
