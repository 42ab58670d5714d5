import { fail, type Outcome, ok } from '../core/outcome.ts';
import { type PlannedLine, planEntry } from '../core/plan.ts';
import { refuse } from '../core/refusals.ts';
import type { BillInput } from '../types.ts';
import { dateOf, decimalFromMinor } from './codec.ts';
import type { TrytonContext } from './context.ts';
import type { RecordKey } from './keys.ts';
import { needJournal, taxName, type Values } from './plan.ts';
import { trytonChart } from './posting-chart.ts';

/**
 * A bill as a Tryton supplier invoice (type in), posted: one invoice line per net part of the
 * planned entry (core/plan.ts) with its analytic axes, the tax parts as manual invoice taxes so
 * Tryton's totals are the platform's to the cent (Tryton would round per invoice), the vendor's
 * address and the accounts payable. The vendor's invoice number is the invoice's reference; its
 * description holds the idempotency reference (keys.ts).
 */

const isNet = (l: PlannedLine) => l.role === null && l.taxRateId === null;

function invoiceLines(lines: PlannedLine[], input: BillInput, key: RecordKey, exponent: number): Values[] {
  return lines.filter(isNet).map((l) => {
    const values: Values = {
      type: 'line',
      account: Number(l.accountId),
      description: l.memo || input.memo || input.invoiceNumber || key.objectId,
      quantity: 1,
      unit_price: decimalFromMinor(l.amount, exponent),
    };
    const entries = Object.entries(l.dimensions).map(([root, account]) => ({
      root: Number(root),
      account: Number(account),
    }));
    if (entries.length) values.analytic_accounts = [['create', entries]];
    return values;
  });
}

/** One manual tax per Tryton tax: the sum of the net parts it taxes, and of its tax parts. */
function manualTaxes(lines: PlannedLine[], ctx: TrytonContext): Values[] {
  const taxes = new Map<string, { base: number; amount: number }>();
  const sum = (id: string) => taxes.get(id) ?? taxes.set(id, { base: 0, amount: 0 }).get(id)!;
  for (const l of lines) {
    for (const id of l.taxBaseOf) sum(id).base += l.amount;
    if (l.taxRateId !== null) sum(l.taxRateId).amount += l.amount;
  }
  const exponent = ctx.company.digits;
  return [...taxes.entries()].map(([id, t]) => ({
    manual: true,
    tax: Number(id),
    account: ctx.taxes.get(Number(id))?.invoice_account,
    description: taxName(ctx, id),
    base: decimalFromMinor(t.base, exponent),
    amount: decimalFromMinor(t.amount, exponent),
  }));
}

export function planBill(input: BillInput, key: RecordKey, ctx: TrytonContext): Outcome<Values> {
  const journal = needJournal(ctx, 'invoices');
  if (!journal.ok) return journal;
  const chart = trytonChart(ctx);
  const planned = planEntry(input, chart);
  if (!planned.ok) return planned;
  // The core checked the vendor; a supplier invoice also needs its address.
  const party = ctx.parties.get(input.vendorId)!;
  const address = party.addresses[0];
  if (address === undefined)
    return fail(refuse.vendorWithoutAddress(chart.terms, party.name ?? input.vendorId));
  const { lines, bill } = planned.value;
  return ok({
    type: 'in',
    company: ctx.company.id,
    party: party.id,
    invoice_address: address,
    currency: ctx.company.currencyId,
    journal: journal.value,
    account: Number(bill!.payableAccountId),
    invoice_date: dateOf(input.date),
    reference: input.invoiceNumber,
    description: key.text,
    comment: input.memo || null,
    lines: [['create', invoiceLines(lines, input, key, ctx.company.digits)]],
    taxes: [['create', manualTaxes(lines, ctx)]],
  });
}
