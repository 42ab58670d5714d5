import type { ChartAccount, ChartTaxCode, PostingChart } from '../core/chart-view.ts';
import type { PostingInput } from '../types.ts';
import { type AccountRow, optionKey, type PostingContext, type TaxCodeRow } from './model.ts';
import { LEDGER_TERMS, monthName } from './terms.ts';

/**
 * A batch's PostingContext as the posting core's neutral view of the books. Lookups read the
 * context as it is, so a planned payment shrinks what is open on its bill for the payments
 * after it in the batch. A batch makes it once for all its writes, and the view of an account or
 * a tax code once per row the context holds, not at every look-up: a write looks its accounts up
 * three times or more, and making them anew took a third of the ledger's planning.
 */

export function ledgerChart(ctx: PostingContext): PostingChart {
  const accountViews = new WeakMap<AccountRow, ChartAccount>();
  const taxCodeViews = new WeakMap<TaxCodeRow, ChartTaxCode>();
  return {
    terms: LEDGER_TERMS,
    books(entityId) {
      const entity =
        entityId === null ? [...ctx.entities.values()].find((e) => e.isDefault) : ctx.entities.get(entityId);
      return entity && { entityId: entity.id, label: entity.name, currency: entity.currency };
    },
    period: (_books, date) => {
      const closed = ctx.closedPeriods.some((p) => date >= p.start && date <= p.end);
      return closed ? { open: false, name: monthName(date) } : { open: true };
    },
    account(id) {
      const a = ctx.accounts.get(id);
      if (!a) return undefined;
      let view = accountViews.get(a);
      if (!view) {
        const incomeStatement = a.classification === 'REVENUE' || a.classification === 'EXPENSE';
        view = { ...a, postable: true, incomeStatement };
        accountViews.set(a, view);
      }
      return view;
    },
    roleDefault(role) {
      const accountId = ctx.defaults[role];
      return accountId ? { accountId } : { lookedFor: undefined };
    },
    vendor: (id) => ctx.vendors.get(id),
    taxCode(id) {
      const code = ctx.taxCodes.get(id);
      if (!code) return undefined;
      let view = taxCodeViews.get(code);
      if (!view) {
        view = { ...code, usable: true };
        taxCodeViews.set(code, view);
      }
      return view;
    },
    field: (id) => fieldOf(ctx, id),
    fields: () => [...ctx.fields.keys()].map((id) => fieldOf(ctx, id)!),
    option(fieldId, optionId) {
      const o = ctx.options.get(optionKey(fieldId, optionId));
      return o && { id: o.id, name: o.value, active: o.active };
    },
    bill(objectId) {
      const row = ctx.bills.get(objectId);
      if (!row) return undefined;
      // What is open is the row's: a planned payment counts in `paid`, as the write will.
      return {
        id: row.postingId,
        label: `bill ${row.referenceId}`,
        vendorId: row.vendorId,
        currency: row.currency,
        get open() {
          return row.total - row.paid;
        },
        set open(open: number) {
          row.paid = row.total - open;
        },
      };
    },
  };
}

function fieldOf(ctx: PostingContext, id: string) {
  const f = ctx.fields.get(id);
  if (!f) return undefined;
  const required = { kinds: f.requiredFor as PostingInput['kind'][], incomeStatementOnly: false };
  return { id: f.id, name: f.name, active: f.active, hasOptions: f.inputType === 'SINGLE_CHOICE', required };
}
