import type { Outcome } from '../../../../src/erp/core/outcome.ts';
import { type PlannedEntry, planEntry } from '../../../../src/erp/core/plan.ts';
import type { AccountRow, PostingContext } from '../../../../src/erp/ledger/model.ts';
import { optionKey } from '../../../../src/erp/ledger/model.ts';
import { ledgerChart } from '../../../../src/erp/ledger/posting-chart.ts';
import type { CodedLine, PostingInput } from '../../../../src/erp/types.ts';

/** A small in-memory chart for the ledger's pure checks and rules. */
export function ledgerContext(): PostingContext {
  const account = (
    id: string,
    code: string,
    name: string,
    classification: AccountRow['classification'],
    active = true,
  ) => [id, { id, code, name, classification, active }] as const;
  return {
    accounts: new Map([
      account('gl-1000', '1000', 'Operating Bank', 'ASSET'),
      account('gl-1400', '1400', 'Input VAT', 'ASSET'),
      account('gl-2000', '2000', 'Accounts Payable', 'LIABILITY'),
      account('gl-2100', '2100', 'Card Payable', 'CREDCARD'),
      account('gl-2110', '2110', 'Travel Card Payable', 'CREDCARD'),
      account('gl-2200', '2200', 'Employee Payable', 'LIABILITY'),
      account('gl-2310', '2310', 'Output VAT', 'LIABILITY'),
      account('gl-4900', '4900', 'Cashback', 'REVENUE'),
      account('gl-6020', '6020', 'Travel', 'EXPENSE'),
      account('gl-6040', '6040', 'Meals', 'EXPENSE'),
      account('gl-6999', '6999', 'Old Travel', 'EXPENSE', false),
      account('gl-1499', '1499', 'Old VAT', 'ASSET', false),
    ]),
    vendors: new Map([
      ['ven-1', { id: 'ven-1', name: 'Delta Air Lines', code: 'V1', active: true }],
      ['ven-2', { id: 'ven-2', name: 'Defunct Supplies', code: 'V2', active: false }],
    ]),
    fields: new Map([
      [
        'department',
        {
          id: 'department',
          name: 'Department',
          inputType: 'SINGLE_CHOICE',
          active: true,
          requiredFor: ['bill'],
        },
      ],
      ['class', { id: 'class', name: 'Class', inputType: 'SINGLE_CHOICE', active: true, requiredFor: [] }],
      ['note', { id: 'note', name: 'Note', inputType: 'FREE_FORM_TEXT', active: true, requiredFor: [] }],
      [
        'legacy',
        { id: 'legacy', name: 'Legacy', inputType: 'SINGLE_CHOICE', active: false, requiredFor: [] },
      ],
    ]),
    options: new Map([
      [
        optionKey('department', 'd-sales'),
        { fieldId: 'department', id: 'd-sales', value: 'Sales', active: true },
      ],
      [
        optionKey('department', 'd-old'),
        { fieldId: 'department', id: 'd-old', value: 'Old Team', active: false },
      ],
      [optionKey('class', 'c-opex'), { fieldId: 'class', id: 'c-opex', value: 'Opex', active: true }],
    ]),
    taxCodes: new Map([
      [
        'tc-vat20',
        {
          id: 'tc-vat20',
          name: 'VAT 20%',
          active: true,
          rates: [{ id: 'tr-20', name: 'VAT 20%', rate: '0.200000', accountId: 'gl-1400' }],
        },
      ],
      [
        'tc-rc20',
        {
          id: 'tc-rc20',
          name: 'Reverse charge 20%',
          active: true,
          rates: [
            { id: 'tr-rc-in', name: 'RC in', rate: '0.2', accountId: 'gl-1400' },
            { id: 'tr-rc-out', name: 'RC out', rate: '-0.2', accountId: 'gl-2310' },
          ],
        },
      ],
      ['tc-old', { id: 'tc-old', name: 'VAT 17.5%', active: false, rates: [] }],
      [
        'tc-broken',
        {
          id: 'tc-broken',
          name: 'Broken VAT',
          active: true,
          rates: [{ id: 'tr-b', name: 'Old', rate: '0.1', accountId: 'gl-1499' }],
        },
      ],
      [
        'tc-neg',
        {
          id: 'tc-neg',
          name: 'Minus everything',
          active: true,
          rates: [{ id: 'tr-n', name: 'N', rate: '-1', accountId: 'gl-1400' }],
        },
      ],
    ]),
    entities: new Map([
      [
        'ent-us',
        { id: 'ent-us', name: 'Acme Inc.', currency: { code: 'USD', exponent: 2 }, isDefault: true },
      ],
      [
        'ent-jp',
        { id: 'ent-jp', name: 'Acme Japan KK', currency: { code: 'JPY', exponent: 0 }, isDefault: false },
      ],
    ]),
    closedPeriods: [{ start: '2024-12-01', end: '2024-12-31' }],
    defaults: {
      card_liability: 'gl-2100',
      employee_payable: 'gl-2200',
      accounts_payable: 'gl-2000',
      bank: 'gl-1000',
      cashback_income: 'gl-4900',
    },
    bills: new Map([
      [
        'bill-1',
        {
          postingId: '41',
          objectId: 'bill-1',
          referenceId: 'BILL-0000041',
          vendorId: 'ven-1',
          currency: 'USD',
          total: 10_000,
          paid: 2_500,
        },
      ],
    ]),
  };
}

export const header = {
  objectId: 'obj-1',
  date: '2025-01-15',
  entityId: null,
  currency: { code: 'USD', exponent: 2 },
  memo: 'memo',
  counterpart: null,
};

export function codedLine(amountMinor: number, extra: Partial<CodedLine> = {}): CodedLine {
  return { amountMinor, glAccountId: 'gl-6020', dimensions: { department: 'd-sales' }, memo: '', ...extra };
}

export function card(lines: CodedLine[], extra: Partial<PostingInput> = {}): PostingInput {
  const totalMinor = lines.reduce((s, l) => s + l.amountMinor, 0);
  return { kind: 'card_transaction', ...header, totalMinor, lines, ...extra } as PostingInput;
}

/** One write planned against a context, as a ledger batch plans each of its writes. */
export function planPosting(input: PostingInput, ctx: PostingContext): Outcome<PlannedEntry> {
  return planEntry(input, ledgerChart(ctx));
}
