import type { BillInput } from '../types.ts';
import { checkHeader, checkVendor, type Outcome, resolveRole } from './checks.ts';
import { dateOf, decimalFromMinor } from './codec.ts';
import type { TrytonContext } from './context.ts';
import type { RecordKey } from './keys.ts';
import type { Values } from './plan.ts';
import { needJournal, type SplitLine, splitLines } from './plan-lines.ts';
import { refuse } from './refusals.ts';

/**
 * A bill as a Tryton supplier invoice (type in), posted: one invoice line per coded line at its
 * net amount (with its analytic axes), the tax parts as manual invoice taxes so Tryton's totals
 * are the platform's to the cent (Tryton would round per invoice), the vendor's address and the
 * accounts payable. The vendor's invoice number is the invoice's reference; its description
 * holds the idempotency reference (keys.ts).
 */

function invoiceLines(lines: SplitLine[], input: BillInput, key: RecordKey, exponent: number): Values[] {
  return lines.map((l) => {
    const values: Values = {
      type: 'line',
      account: l.checked.account.id,
      description: l.coded.memo || input.memo || input.invoiceNumber || key.objectId,
      quantity: 1,
      unit_price: decimalFromMinor(l.netMinor, exponent),
    };
    const entries = Object.entries(l.coded.dimensions).map(([root, account]) => ({
      root: Number(root),
      account: Number(account),
    }));
    if (entries.length) values.analytic_accounts = [['create', entries]];
    return values;
  });
}

function manualTaxes(lines: SplitLine[], exponent: number): Values[] {
  const taxes = new Map<
    number,
    { tax: number; account: number; name: string; base: number; amount: number }
  >();
  for (const l of lines) {
    for (const t of l.taxes) {
      const sum = taxes.get(t.tax) ?? { tax: t.tax, account: t.account, name: t.name, base: 0, amount: 0 };
      sum.base += l.netMinor;
      sum.amount += t.amountMinor;
      taxes.set(t.tax, sum);
    }
  }
  return [...taxes.values()].map((t) => ({
    manual: true,
    tax: t.tax,
    account: t.account,
    description: t.name,
    base: decimalFromMinor(t.base, exponent),
    amount: decimalFromMinor(t.amount, exponent),
  }));
}

export function planBill(input: BillInput, key: RecordKey, ctx: TrytonContext): Outcome<Values> {
  const period = checkHeader(input, ctx);
  if (!period.ok) return period;
  const vendor = checkVendor(input.vendorId, 'the bill', ctx);
  if (!vendor.ok) return vendor;
  const address = vendor.value.addresses[0];
  if (address === undefined) {
    return { ok: false, error: refuse.vendorWithoutAddress(vendor.value.name ?? input.vendorId) };
  }
  const journal = needJournal(ctx, 'invoices');
  if (!journal.ok) return journal;
  const payable = resolveRole('accounts_payable', input.payableAccountId, ctx);
  if (!payable.ok) return payable;
  const lines = splitLines(input, ctx);
  if (!lines.ok) return lines;
  const exponent = ctx.company.digits;
  return {
    ok: true,
    value: {
      type: 'in',
      company: ctx.company.id,
      party: vendor.value.id,
      invoice_address: address,
      currency: ctx.company.currencyId,
      journal: journal.value,
      account: payable.value.id,
      invoice_date: dateOf(input.date),
      reference: input.invoiceNumber,
      description: key.text,
      comment: input.memo || null,
      lines: [['create', invoiceLines(lines.value, input, key, exponent)]],
      taxes: [['create', manualTaxes(lines.value, exponent)]],
    },
  };
}
