import { describe, expect, it } from 'vitest';
import type { TrytonContext } from '../../../../src/erp/tryton/context.ts';
import { recordKey } from '../../../../src/erp/tryton/keys.ts';
import { planMove } from '../../../../src/erp/tryton/plan.ts';
import { planBill } from '../../../../src/erp/tryton/plan-bill.ts';
import type { BillInput, CardTransactionInput } from '../../../../src/erp/types.ts';

const account = (id: number, code: string, type: number, extra = {}) => ({
  id,
  code,
  name: `Account ${code}`,
  closed: false,
  type,
  party_required: false,
  start_date: null as string | null,
  end_date: null as string | null,
  ...extra,
});
const type = (id: number, statement: string, flags = {}) => ({
  id,
  name: `type ${id}`,
  statement,
  assets: false,
  receivable: false,
  payable: false,
  revenue: false,
  expense: false,
  parent: null,
  ...flags,
});
const analytic = (id: number, type: string, root: number | null) => ({
  id,
  name: type === 'root' ? 'Department' : `Option ${id}`,
  code: null,
  type,
  state: 'opened',
  root,
  active: true,
});

function context(): TrytonContext {
  const accounts = [
    account(8, '6020', 1),
    account(12, '6999', 1, { closed: true }),
    account(13, '2100', 2),
    account(15, '1010', 3),
    account(4, '', 4, { party_required: true }),
    account(7, '', 2),
    // Ended before the fiscal year of today: Tryton shows it inactive.
    account(14, '6998', 1, { end_date: '2023-12-31' }),
  ];
  return {
    company: {
      id: 1,
      name: 'Acme',
      currencyId: 1,
      currencyCode: 'USD',
      digits: 2,
      partyId: 3,
    },
    entityIds: new Set(['ent_1']),
    companyLabel: null,
    activeWindow: { from: '2025-01-01', to: '2025-12-31' },
    accounts: new Map(accounts.map((a) => [String(a.id), a])),
    types: new Map(
      [
        type(1, 'income', { expense: true }),
        type(2, 'balance'),
        type(3, 'balance', { assets: true }),
        type(4, 'balance', { payable: true }),
      ].map((t) => [t.id, t]),
    ),
    parties: new Map([['2', { id: 2, name: 'Northwind', code: 'P2', active: true, addresses: [5] }]]),
    taxes: new Map([
      [
        1,
        {
          id: 1,
          name: 'VAT 20%',
          type: 'percentage',
          rate: '0.20',
          invoice_account: 7,
          parent: null,
          childs: [],
          active: true,
        },
      ],
    ]),
    analytic: new Map([analytic(1, 'root', null), analytic(2, 'normal', 1)].map((a) => [String(a.id), a])),
    periods: [
      {
        id: 10,
        name: '2025-02',
        start_date: '2025-02-01',
        end_date: '2025-02-28',
        state: 'open',
        type: 'standard',
      },
      {
        id: 9,
        name: '2024-12',
        start_date: '2024-12-01',
        end_date: '2024-12-31',
        state: 'close',
        type: 'standard',
      },
    ],
    journalId: 5,
    journalCode: 'SVC',
    expenseJournalId: 2,
    roles: new Map([
      ['card_liability', { id: '13' }],
      ['bank', { id: '15' }],
      ['accounts_payable', { id: '4' }],
      ['employee_payable', { missing: '2150' }],
      ['cashback_income', { missing: '4900' }],
    ]),
    bills: new Map(),
  };
}

const line = (amountMinor: number, extra = {}) => ({
  amountMinor,
  glAccountId: '8',
  dimensions: { '1': '2' },
  memo: 'line',
  ...extra,
});

const card = (overrides: Partial<CardTransactionInput> = {}): CardTransactionInput => ({
  kind: 'card_transaction',
  objectId: 'txn_1',
  date: '2025-02-10',
  entityId: null,
  currency: { code: 'USD', exponent: 2 },
  totalMinor: 10_000,
  memo: 'Taxi',
  counterpart: null,
  lines: [line(6_000, { taxCodeId: '1' }), line(4_000)],
  ...overrides,
});

/** The records of a `[['create', [...]]]` One2Many value. */
function created<T>(value: unknown): T[] {
  return (value as [string, T[]][])[0]![1];
}

type MoveLine = { account: number; debit: { decimal: string }; credit: { decimal: string } };
function legsOf(values: Record<string, unknown>): [number, string, string][] {
  const lines = created<MoveLine>(values.lines);
  return lines.map((l) => [l.account, l.debit.decimal, l.credit.decimal]);
}

describe('Tryton posting plans', () => {
  it('splits tax out of a card transaction and credits the card liability; a refund mirrors it', () => {
    const plan = planMove(card(), recordKey('card_transaction', 'txn_1'), context());
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value).toMatchObject({ description: 'svc:card_transaction:txn_1', journal: 5, period: 10 });
    expect(legsOf(plan.value)).toEqual([
      [8, '50.00', '0.00'],
      [7, '10.00', '0.00'],
      [8, '40.00', '0.00'],
      [13, '0.00', '100.00'],
    ]);
    const refund = planMove(
      card({ totalMinor: -4_000, lines: [line(-4_000)] }),
      recordKey('card_transaction', 'r'),
      context(),
    );
    if (!refund.ok) throw new Error(refund.error.message);
    expect(legsOf(refund.value)).toEqual([
      [8, '0.00', '40.00'],
      [13, '40.00', '0.00'],
    ]);
  });

  it('moves a transfer from the card liability to the bank', () => {
    const transfer = { ...card(), kind: 'transfer' as const, totalMinor: 500_000 } as never;
    const plan = planMove(transfer, recordKey('transfer', 't'), context());
    if (!plan.ok) throw new Error(plan.error.message);
    expect(legsOf(plan.value)).toEqual([
      [13, '5000.00', '0.00'],
      [15, '0.00', '5000.00'],
    ]);
  });

  it('writes a bill as a supplier invoice with net lines and the exact taxes as manual taxes', () => {
    const bill: BillInput = {
      ...card(),
      kind: 'bill',
      totalMinor: 12_001,
      vendorId: '2',
      invoiceNumber: 'INV-7',
      dueDate: null,
      lines: [line(12_001, { taxCodeId: '1' })],
    } as BillInput;
    const plan = planBill(bill, recordKey('bill', 'b'), context());
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value).toMatchObject({
      type: 'in',
      party: 2,
      invoice_address: 5,
      account: 4,
      reference: 'INV-7',
    });
    const lines = created<{ unit_price: { decimal: string } }>(plan.value.lines);
    const taxes = created<{ base: { decimal: string } }>(plan.value.taxes);
    expect(lines[0]!.unit_price.decimal).toBe('100.01');
    expect(taxes[0]).toMatchObject({
      manual: true,
      tax: 1,
      base: { decimal: '100.01' },
      amount: { decimal: '20.00' },
    });
  });

  it('refuses before writing: closed period, unknown entity, closed or out-of-date account, missing axis, missing default', () => {
    const codes = [
      planMove(card({ date: '2024-12-15' }), recordKey('card_transaction', 'a'), context()),
      planMove(card({ date: '2023-05-01' }), recordKey('card_transaction', 'b'), context()),
      planMove(card({ entityId: 'ent_9' }), recordKey('card_transaction', 'c'), context()),
      planMove(
        card({ lines: [line(6_000, { glAccountId: '12' }), line(4_000)] }),
        recordKey('card_transaction', 'd'),
        context(),
      ),
      planMove(
        card({ lines: [line(6_000, { glAccountId: '14' }), line(4_000)] }),
        recordKey('card_transaction', 'g'),
        context(),
      ),
      planMove(
        card({ lines: [line(6_000, { dimensions: {} }), line(4_000)] }),
        recordKey('card_transaction', 'e'),
        context(),
      ),
      planMove({ ...card(), kind: 'reimbursement' } as never, recordKey('reimbursement', 'f'), context()),
    ].map((p) => (p.ok ? 'ok' : p.error.code));
    expect(codes).toEqual([
      'PERIOD_CLOSED',
      'PERIOD_MISSING',
      'ENTITY_UNKNOWN',
      'ACCOUNT_INACTIVE',
      'ACCOUNT_INACTIVE',
      'DIMENSION_REQUIRED',
      'DEFAULT_ACCOUNT_MISSING',
    ]);
  });

  it('a payment planned in a batch leaves less open on its invoice for the next payment of it', () => {
    const ctx = context();
    ctx.bills.set('bill_1', {
      id: 30,
      company: 1,
      description: 'svc:bill:bill_1',
      state: 'posted',
      number: 'SI-7',
      party: 2,
      account: 4,
      currency: 1,
      total_amount: '100.00',
      amount_to_pay: '100.00',
      lines_to_pay: [],
      payment_lines: [],
      move: null,
      create_date: '2025-02-01T00:00:00Z',
    });
    const payment = (objectId: string, totalMinor: number) =>
      ({ ...card(), kind: 'bill_payment', objectId, totalMinor, billObjectId: 'bill_1' }) as never;
    const first = planMove(payment('p1', 6_000), recordKey('bill_payment', 'p1'), ctx);
    if (!first.ok) throw new Error(first.error.message);
    expect(legsOf(first.value)).toEqual([
      [4, '60.00', '0.00'],
      [15, '0.00', '60.00'],
    ]);
    const second = planMove(payment('p2', 6_000), recordKey('bill_payment', 'p2'), ctx);
    expect(second.ok ? 'ok' : second.error.title).toBe(
      'The payment of 60.00 USD is more than the 40.00 USD still open on invoice SI-7 in Tryton',
    );
  });

  it("speaks Tryton's words in the shared refusals", () => {
    const titles = [
      planMove(card({ date: '2024-12-15' }), recordKey('card_transaction', 'a'), context()),
      planMove(card({ entityId: 'ent_9' }), recordKey('card_transaction', 'b'), context()),
      planMove(
        card({ lines: [line(6_000, { glAccountId: '12' }), line(4_000)] }),
        recordKey('card_transaction', 'c'),
        context(),
      ),
      planMove(
        card({ lines: [line(6_000, { dimensions: {} }), line(4_000)] }),
        recordKey('card_transaction', 'd'),
        context(),
      ),
    ].map((p) => (p.ok ? 'ok' : `${p.error.title} | ${p.error.fix}`));
    expect(titles).toEqual([
      'The card transaction is dated 2024-12-15, in the closed period 2024-12 | reopen period 2024-12 in Tryton, or change the accounting date to an open period',
      'Entity ent_9 has no books in Tryton | add ent_9 as an identifier of the party of company Acme in Tryton, or move the object to an entity whose books Tryton keeps',
      'GL account 6999 Account 6999 on line 1 is closed or inactive in Tryton | reactivate account 6999 in Tryton (untick Closed), or pick another active account',
      'Department is required on every card transaction line coded to an income or expense account, and line 1 has none | choose a Department on line 1',
    ]);
  });
});
