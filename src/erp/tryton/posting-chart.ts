import type { ChartField, OpenBill, PostingChart } from '../core/chart-view.ts';
import { isActive } from './active-window.ts';
import { leafRates } from './chart-read.ts';
import { minorFromDecimal } from './codec.ts';
import type { TrytonContext } from './context.ts';
import type { AnalyticRow } from './rows.ts';
import { trytonTerms } from './terms.ts';

/**
 * A company's TrytonContext as the posting core's neutral view of its books: an account is
 * active when not closed and its dates meet the fiscal year of today, and postable when it has a
 * type; open analytic roots are the fields, required on lines of income-statement accounts; a
 * tax's percentage leaves with an account are its rates. Made once per context, so a planned
 * payment shrinks what is open on its invoice for the payments after it.
 */

const views = new WeakMap<TrytonContext, PostingChart>();

function fieldOf(root: AnalyticRow): ChartField {
  return {
    id: String(root.id),
    name: root.name,
    active: root.active && root.state === 'opened',
    hasOptions: true,
    // Tryton expects every open analytic axis on lines of income-statement accounts.
    required: { kinds: null, incomeStatementOnly: true },
  };
}

function makeChart(ctx: TrytonContext): PostingChart {
  const { company } = ctx;
  const bills = new Map<string, OpenBill>();
  const chart: PostingChart = {
    terms: trytonTerms(company.name, ctx.companyLabel !== null),
    books(entityId) {
      if (entityId !== null && ctx.entityIds !== null && !ctx.entityIds.has(entityId)) return undefined;
      const currency = { code: company.currencyCode, exponent: company.digits };
      return { entityId: entityId ?? '', label: `${company.name} in Tryton`, currency };
    },
    period(_books, date) {
      const period = ctx.periods.find((p) => p.start_date <= date && date <= p.end_date);
      if (!period) return undefined;
      return period.state === 'open' ? { open: true } : { open: false, name: period.name };
    },
    account(id) {
      const a = ctx.accounts.get(id);
      if (!a) return undefined;
      const statement = a.type === null ? null : ctx.types.get(a.type)?.statement;
      return {
        id,
        code: a.code,
        name: a.name,
        active: !a.closed && isActive(a, ctx.activeWindow),
        postable: a.type !== null,
        incomeStatement: statement === 'income',
      };
    },
    roleDefault(role) {
      const found = ctx.roles.get(role);
      if (found && 'id' in found) return { accountId: found.id };
      return { lookedFor: found?.missing };
    },
    vendor(id) {
      const party = ctx.parties.get(id);
      return party && { id, name: party.name, active: party.active };
    },
    taxCode(id) {
      const tax = /^\d+$/.test(id) ? ctx.taxes.get(Number(id)) : undefined;
      if (!tax) return undefined;
      const rates = leafRates(tax, ctx.taxes).map((r) => ({
        id: String(r.id),
        name: r.name,
        rate: r.rate ?? '0',
        accountId: String(r.invoice_account),
      }));
      return { id, name: tax.name, active: tax.active, rates, usable: rates.length > 0 };
    },
    field(id) {
      const root = ctx.analytic.get(id);
      return root?.type === 'root' ? fieldOf(root) : undefined;
    },
    fields: () => [...ctx.analytic.values()].filter((a) => a.type === 'root').map(fieldOf),
    option(fieldId, optionId) {
      const o = ctx.analytic.get(optionId);
      if (!o || String(o.root) !== fieldId || o.type !== 'normal') return undefined;
      return { id: optionId, name: o.name, active: o.active && o.state === 'opened' };
    },
    bill(objectId) {
      const invoice = ctx.bills.get(objectId);
      if (!invoice || !['posted', 'paid'].includes(invoice.state)) return undefined;
      const known = bills.get(objectId);
      if (known) return known;
      const bill: OpenBill = {
        id: String(invoice.id),
        label: `invoice ${invoice.number ?? String(invoice.id)} in Tryton`,
        vendorId: String(invoice.party),
        currency: invoice.currency === company.currencyId ? company.currencyCode : 'another currency',
        open: minorFromDecimal(invoice.amount_to_pay, company.digits),
        payableAccountId: String(invoice.account),
      };
      bills.set(objectId, bill);
      return bill;
    },
  };
  return chart;
}

export function trytonChart(ctx: TrytonContext): PostingChart {
  let chart = views.get(ctx);
  if (!chart) {
    chart = makeChart(ctx);
    views.set(ctx, chart);
  }
  return chart;
}
