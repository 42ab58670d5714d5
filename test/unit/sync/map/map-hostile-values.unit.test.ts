import { describe, expect, it } from 'vitest';
import {
  BillInput,
  CardTransactionInput,
  ErpWrite,
  hasControlCharacter,
  ReimbursementInput,
} from '../../../../src/erp/index.ts';
import type { Bill, Cashback, Reimbursement, Transaction, Transfer } from '../../../../src/platform/index.ts';
import { freeText } from '../../../../src/sync/map/free-text.ts';
import { MappingProblem } from '../../../../src/sync/map/mapping-problem.ts';
import {
  mapBill,
  mapBillPayment,
  mapCashback,
  mapReimbursement,
  mapTransaction,
  mapTransfer,
} from '../../../../src/sync/map/objects.ts';
import { KIND_SPECS, planPage } from '../../../../src/sync/objects/index.ts';
import { bill, sel, transaction } from '../../../support/platform-objects.ts';

/** Hostile values on ready objects: each is the bookkeeper's to fix, or harmless once cleaned. */

const tx = (over: Partial<Transaction> = {}): Transaction => transaction({ amount: 100, ...over });

function problemOf(map: () => unknown): MappingProblem {
  try {
    map();
  } catch (error) {
    if (error instanceof MappingProblem) return error;
    throw error;
  }
  throw new Error('the mapping accepted the object');
}

const messageOf = (map: () => unknown) => problemOf(map).toErrorInfo();

describe('a zero amount is refused as the bookkeeper’s to check', () => {
  it('card transaction, reimbursement, transfer, cashback, bill and bill payment', () => {
    const cases: [string, () => unknown][] = [
      ['This card transaction', () => mapTransaction(tx({ amount: 0 }))],
      [
        'This reimbursement',
        () =>
          mapReimbursement({
            id: 'r-1',
            amount: 0,
            currency: 'USD',
            transaction_date: '2026-03-01',
            accounting_field_selections: [sel('GL_ACCOUNT', '6100')],
            line_items: [],
          } as unknown as Reimbursement),
      ],
      [
        'This transfer',
        () =>
          mapTransfer({
            id: 'tr-1',
            amount: { amount: 0, currency_code: 'USD' },
            created_at: '2026-03-01T00:00:00Z',
          } as unknown as Transfer),
      ],
      [
        'This cashback',
        () =>
          mapCashback({
            id: 'cb-1',
            amount: { amount: 0, currency_code: 'USD' },
            created_at: '2026-03-01T00:00:00Z',
          } as unknown as Cashback),
      ],
      ['Bill INV-7', () => mapBill(bill({ amount: { amount: 0, currency_code: 'EUR' } }))],
      [
        'The payment of bill INV-7',
        () =>
          mapBillPayment(bill({ payment: { amount: { amount: 0, currency_code: 'EUR' } } } as Partial<Bill>)),
      ],
    ];
    for (const [what, map] of cases) {
      const info = messageOf(map);
      expect(info.category, what).toBe('user_actionable');
      expect(info.code).toBe('ZERO_AMOUNT');
      expect(info.message).toMatch(
        new RegExp(`^Action needed: ${what} has an amount of zero \\(0\\.00 (USD|EUR)\\)`),
      );
      expect(info.message).toContain('nothing to post to the ERP');
      expect(info.message).toContain('Fix: Check the amount on the spend platform and correct it');
    }
  });

  it('a zero total with split lines that cancel out is refused too', () => {
    const split = tx({
      amount: 0,
      line_items: [
        { amount: 50, memo: 'a', accounting_field_selections: [] },
        { amount: -50, memo: 'b', accounting_field_selections: [] },
      ],
    });
    expect(messageOf(() => mapTransaction(split)).code).toBe('ZERO_AMOUNT');
  });

  it('the ERP input schema refuses a zero card transaction or reimbursement whoever builds it', () => {
    const line = { glAccountId: '6100', dimensions: {}, memo: '', amountMinor: 0 };
    const header = {
      objectId: 'x',
      date: '2026-03-01',
      entityId: null,
      currency: { code: 'USD', exponent: 2 },
      totalMinor: 0,
      memo: '',
      counterpart: null,
      lines: [line],
    };
    expect(CardTransactionInput.safeParse({ kind: 'card_transaction', ...header }).success).toBe(false);
    expect(ReimbursementInput.safeParse({ kind: 'reimbursement', ...header }).success).toBe(false);
  });
});

describe('line items that disagree with the total are refused, naming both sums', () => {
  it('lines adding up to twice the total', () => {
    const doubled = tx({
      amount: 100,
      line_items: [
        { amount: 120, memo: 'a', accounting_field_selections: [] },
        { amount: 80, memo: 'b', accounting_field_selections: [] },
      ],
    });
    const info = messageOf(() => mapTransaction(doubled));
    expect(info).toMatchObject({ category: 'user_actionable', code: 'LINES_DISAGREE_WITH_TOTAL' });
    expect(info.message).toBe(
      'Action needed: The line items of this card transaction add up to 200.00 USD, but its total is 100.00 USD. ' +
        'Fix: Correct the line item amounts or the total in the spend platform so that they agree, then sync again.',
    );
  });

  it('a bill whose CurrencyAmount lines fall short of its total', () => {
    const short = bill({
      amount: { amount: 248000, currency_code: 'USD' },
      line_items: [
        { amount: { amount: 180000, currency_code: 'USD' }, accounting_field_selections: [] },
        { amount: { amount: 18000, currency_code: 'USD' }, accounting_field_selections: [] },
      ],
    });
    expect(messageOf(() => mapBill(short)).message).toContain(
      'The line items of bill INV-7 add up to 1,980.00 USD, but its total is 2,480.00 USD',
    );
  });

  it('a refund whose lines carry the wrong sign', () => {
    const refund = tx({
      amount: -30,
      line_items: [
        { amount: 10, memo: 'a', accounting_field_selections: [] },
        { amount: 20, memo: 'b', accounting_field_selections: [] },
      ],
    });
    expect(messageOf(() => mapTransaction(refund)).message).toContain(
      'add up to 30.00 USD, but its total is -30.00 USD',
    );
  });

  it('a drift of up to one minor unit per line is rounding: it lands on the last line', () => {
    const input = mapTransaction(
      tx({
        amount: 100,
        line_items: [
          { amount: 33.33, memo: 'a', accounting_field_selections: [] },
          { amount: 33.33, memo: 'b', accounting_field_selections: [] },
          { amount: 33.33, memo: 'c', accounting_field_selections: [] },
        ],
      }),
    );
    expect(input.lines.map((l) => l.amountMinor)).toEqual([3333, 3333, 3334]);
    const beyond = tx({
      amount: 100,
      line_items: [
        { amount: 33.32, memo: 'a', accounting_field_selections: [] },
        { amount: 33.32, memo: 'b', accounting_field_selections: [] },
        { amount: 33.32, memo: 'c', accounting_field_selections: [] },
      ],
    });
    expect(messageOf(() => mapTransaction(beyond)).code).toBe('LINES_DISAGREE_WITH_TOTAL');
  });

  it('lines whose amounts cannot be read at all are still spread over the total', () => {
    const unreadable = mapReimbursement({
      id: 'r-2',
      amount: 29.4,
      currency: 'USD',
      transaction_date: '2026-03-01',
      accounting_field_selections: [sel('GL_ACCOUNT', '6100')],
      line_items: [
        { amount: null, accounting_field_selections: [] },
        { amount: { amount: 100, currency_code: 'EUR' }, accounting_field_selections: [] },
      ],
    } as unknown as Reimbursement);
    expect(unreadable.lines.map((l) => l.amountMinor)).toEqual([1470, 1470]);
    expect(ReimbursementInput.safeParse(unreadable).success).toBe(true);
  });
});

describe('control characters in free text are removed before the ERP', () => {
  it('NUL and other C0 codes go; tab, line feed and carriage return stay', () => {
    expect(freeText('Team\u0000 lunch\u0007\u001b\u007f')).toBe('Team lunch');
    expect(freeText('line one\nline two\r\n\tindented')).toBe('line one\nline two\r\n\tindented');
    expect(freeText(null)).toBeNull();
  });

  it('memos, line memos, names and invoice numbers of every kind', () => {
    const input = mapTransaction(
      tx({
        memo: 'Client\u0000 dinner',
        card_holder: { user_id: 'u-1', first_name: 'Ada\u0000', last_name: 'Lovelace' },
        line_items: [
          { amount: 60, memo: 'food\u0001', accounting_field_selections: [] },
          { amount: 40, memo: null, accounting_field_selections: [] },
        ],
      }),
    );
    expect(input.memo).toBe('Client dinner');
    expect(input.counterpart?.name).toBe('Ada Lovelace');
    expect(input.lines.map((l) => l.memo)).toEqual(['food', 'Client dinner']);
    expect(CardTransactionInput.safeParse(input).success).toBe(true);

    const b = bill({
      invoice_number: 'INV-\u00007',
      memo: 'Q1\u0000',
      vendor: { name: 'Bad\u0008Co' },
    } as Partial<Bill>);
    const posted = mapBill(b);
    expect(posted).toMatchObject({ invoiceNumber: 'INV-7', memo: 'Q1' });
    expect(BillInput.safeParse(posted).success).toBe(true);
    expect(mapBillPayment(b).memo).toBe('Payment of bill INV-7');
    expect(
      mapTransfer({
        id: 't',
        amount: { amount: 5, currency_code: 'USD' },
        created_at: '2026-01-01',
        memo: 'a\u0000b',
      } as unknown as Transfer).memo,
    ).toBe('ab');
  });

  it('a failure message never carries a control character (the ledger stores it)', () => {
    const info = messageOf(() =>
      mapBill(
        bill({
          invoice_number: 'INV-\u00009',
          accounting_field_selections: [],
          vendor: null,
        } as Partial<Bill>),
      ),
    );
    expect(info.message).toContain('Bill INV-9 has no accounting vendor');
    expect(hasControlCharacter(info.message)).toBe(false);
  });

  it('the ERP input schema refuses control characters that get past the mapping, naming the field', () => {
    const input = mapTransaction(tx());
    const bad = { ...input, lines: [{ ...input.lines[0]!, memo: 'x\u0000' }] };
    const parsed = ErpWrite.safeParse(bad);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toContain(
      'lines.0.memo: contains a control character',
    );
  });
});

describe('planPage turns each hostile object into a failure of its own', () => {
  it('zero, disagreeing lines and a NUL memo in one page: two failures, two writes', () => {
    const items = [
      tx({ id: 'tx-zero', amount: 0 }),
      tx({
        id: 'tx-double',
        line_items: [
          { amount: 100, memo: 'a', accounting_field_selections: [] },
          { amount: 100, memo: 'b', accounting_field_selections: [] },
        ],
      }),
      tx({ id: 'tx-nul', memo: 'a\u0000b' }),
      tx({ id: 'tx-ok' }),
    ].map((value) => ({ ok: true as const, value }));
    const plan = planPage(KIND_SPECS.transactions, items);
    const byId = new Map(plan.items.map((i) => [i.objectId, i]));
    const failure = (id: string) => {
      const item = byId.get(id)!;
      return 'failure' in item ? item.failure : null;
    };
    expect(failure('tx-zero')).toMatchObject({ category: 'user_actionable' });
    expect(failure('tx-zero')?.message).toMatch(/has an amount of zero/);
    expect(failure('tx-double')?.message).toMatch(/add up to 200\.00 USD, but its total is 100\.00 USD/);
    expect(failure('tx-nul')).toBeNull();
    expect(failure('tx-ok')).toBeNull();
  });
});
