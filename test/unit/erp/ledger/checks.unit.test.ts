import { describe, expect, it } from 'vitest';
import type { PostingInput } from '../../../../src/erp/types.ts';
import { card, codedLine, header, ledgerContext, planPosting } from './ledger-context.ts';

function refusal(input: PostingInput, ctx = ledgerContext()) {
  const result = planPosting(input, ctx);
  if (result.ok) throw new Error('expected a refusal');
  return result.error;
}

const bill = (extra: Partial<Record<string, unknown>> = {}) =>
  ({
    kind: 'bill',
    ...header,
    totalMinor: 100,
    vendorId: 'ven-1',
    invoiceNumber: null,
    dueDate: null,
    lines: [codedLine(100)],
    ...extra,
  }) as PostingInput;

describe('refusals', () => {
  it('inactive account: names code and name, says reactivate or pick another', () => {
    const error = refusal(card([codedLine(100, { glAccountId: 'gl-6999' })]));
    expect(error).toMatchObject({ category: 'user_actionable', code: 'ACCOUNT_INACTIVE' });
    expect(error.message).toContain('6999 Old Travel');
    expect(error.fix).toMatch(/reactivate account 6999 .* or pick another active account/);
  });

  it('unknown account, with the line it is on', () => {
    const error = refusal(card([codedLine(50), codedLine(50, { glAccountId: 'gl-404' })]));
    expect(error.code).toBe('ACCOUNT_UNKNOWN');
    expect(error.title).toContain('gl-404 on line 2');
  });

  it('closed period: names the month, says reopen it or change the date', () => {
    const error = refusal(card([codedLine(100)], { date: '2024-12-31' }));
    expect(error.code).toBe('PERIOD_CLOSED');
    expect(error.message).toContain('December 2024');
    expect(error.fix).toMatch(/reopen December 2024/);
  });

  it('currency other than the entity’s book currency', () => {
    const error = refusal(card([codedLine(100)], { currency: { code: 'EUR', exponent: 2 } }));
    expect(error.code).toBe('CURRENCY_MISMATCH');
    expect(error.title).toBe('This card transaction is in EUR but the books of Acme Inc. are kept in USD');
  });

  it('wrong exponent for the currency is the integration’s fault', () => {
    const error = refusal(
      card([codedLine(100)], { entityId: 'ent-jp', currency: { code: 'JPY', exponent: 2 } }),
    );
    expect(error).toMatchObject({ category: 'needs_integrator', code: 'CURRENCY_EXPONENT_MISMATCH' });
  });

  it('unknown entity', () => {
    expect(refusal(card([codedLine(100)], { entityId: 'ent-xx' })).code).toBe('ENTITY_UNKNOWN');
  });

  it('unknown and inactive vendors, on the bill or on a line', () => {
    expect(refusal(bill({ vendorId: 'ven-9' })).code).toBe('VENDOR_UNKNOWN');
    const inactive = refusal(bill({ vendorId: 'ven-2' }));
    expect(inactive.code).toBe('VENDOR_INACTIVE');
    expect(inactive.fix).toContain('reactivate vendor Defunct Supplies');
    expect(refusal(card([codedLine(100, { vendorId: 'ven-2' })])).code).toBe('VENDOR_INACTIVE');
  });

  it('missing required dimension names the field and the kind', () => {
    const error = refusal(bill({ lines: [codedLine(100, { dimensions: {} })] }));
    expect(error.code).toBe('DIMENSION_REQUIRED');
    expect(error.title).toBe('Department is required on every bill line, and the line has none');
    // Required for bills only: a card transaction without it posts.
    expect(planPosting(card([codedLine(100, { dimensions: {} })]), ledgerContext()).ok).toBe(true);
  });

  it('unknown field, unknown or inactive option, inactive field', () => {
    expect(refusal(card([codedLine(100, { dimensions: { region: 'x' } })])).code).toBe('FIELD_UNKNOWN');
    expect(refusal(card([codedLine(100, { dimensions: { department: 'd-x' } })])).code).toBe(
      'FIELD_OPTION_UNKNOWN',
    );
    const inactive = refusal(card([codedLine(100, { dimensions: { department: 'd-old' } })]));
    expect(inactive.code).toBe('FIELD_OPTION_INACTIVE');
    expect(inactive.message).toContain('Department Old Team');
    expect(refusal(card([codedLine(100, { dimensions: { legacy: 'x' } })])).code).toBe('FIELD_INACTIVE');
  });

  it('accepts any value of a free-text field', () => {
    expect(
      planPosting(card([codedLine(100, { dimensions: { note: 'anything' } })]), ledgerContext()).ok,
    ).toBe(true);
  });

  it('tax code unknown, inactive, with an inactive rate account, or summing to -100%', () => {
    expect(refusal(card([codedLine(100, { taxCodeId: 'tc-x' })])).code).toBe('TAX_CODE_UNKNOWN');
    expect(refusal(card([codedLine(100, { taxCodeId: 'tc-old' })])).code).toBe('TAX_CODE_INACTIVE');
    const rateAccount = refusal(card([codedLine(100, { taxCodeId: 'tc-broken' })]));
    expect(rateAccount.code).toBe('ACCOUNT_INACTIVE');
    expect(rateAccount.title).toContain('tax rate Old');
    expect(refusal(card([codedLine(100, { taxCodeId: 'tc-neg' })])).code).toBe('TAX_CODE_INVALID');
  });

  it('a posting default that is not set, or inactive', () => {
    const ctx = ledgerContext();
    delete ctx.defaults.cashback_income;
    const error = refusal({ kind: 'cashback', ...header, totalMinor: 5 } as PostingInput, ctx);
    expect(error.code).toBe('DEFAULT_ACCOUNT_MISSING');
    expect(error.fix).toBe("set the cashback income account in the ledger's posting defaults");
    const inactive = refusal(
      card([codedLine(100)], { liabilityAccountId: 'gl-6999' } as Partial<PostingInput>),
    );
    expect(inactive.title).toContain('on the card liability account');
  });

  it('bill payments: unknown bill, other currency, more than is open', () => {
    const payment = (extra: Record<string, unknown>) =>
      ({
        kind: 'bill_payment',
        ...header,
        totalMinor: 100,
        billObjectId: 'bill-1',
        ...extra,
      }) as PostingInput;
    const unknown = refusal(payment({ billObjectId: 'bill-404' }));
    expect(unknown.code).toBe('BILL_UNKNOWN');
    expect(unknown.fix).toMatch(/^sync the bill first/);
    const ctx = ledgerContext();
    ctx.entities.get('ent-us')!.currency = { code: 'CAD', exponent: 2 };
    expect(refusal(payment({ currency: { code: 'CAD', exponent: 2 } }), ctx).code).toBe('CURRENCY_MISMATCH');
    const over = refusal(payment({ totalMinor: 7_501 }));
    expect(over.code).toBe('BILL_OVERPAID');
    expect(over.title).toBe(
      'The payment of 75.01 USD is more than the 75.00 USD still open on bill BILL-0000041',
    );
  });
});
