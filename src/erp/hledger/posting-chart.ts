import type { ChartField, OpenBill, PostingChart } from '../core/chart-view.ts';
import { parseRate } from '../core/tax.ts';
import type { HledgerBooks } from './books.ts';
import { HLEDGER_TERMS } from './terms.ts';

/**
 * A journal's books (books.ts) as the posting core's neutral view. One set of books: every
 * entity posts to the journal. Accounts are named, not coded, and any account can be posted to.
 * A planned payment shrinks what is open on its bill for the payments after it.
 */

/** The vendors: subaccounts of the accounts payable account, by full name. */
export function vendorAccounts(books: HledgerBooks): string[] {
  const payable = books.roles.get('accounts_payable');
  if (!payable) return [];
  return [...books.accounts.keys()].filter((name) => name.startsWith(`${payable}:`));
}

export const leafName = (account: string) => account.slice(account.lastIndexOf(':') + 1);

export function validRate(rate: string): boolean {
  try {
    parseRate(rate);
    return true;
  } catch {
    return false;
  }
}

function fieldOf(books: HledgerBooks, id: string): ChartField | undefined {
  const f = books.fields.get(id);
  return (
    f && {
      id,
      name: id,
      active: true,
      hasOptions: true,
      required: f.required ? { kinds: null, incomeStatementOnly: false } : null,
    }
  );
}

export function hledgerChart(books: HledgerBooks): PostingChart {
  const vendors = new Set(vendorAccounts(books));
  const open = new Map<string, OpenBill>();
  return {
    terms: HLEDGER_TERMS,
    books(entityId) {
      const currency = books.currency;
      return currency ? { entityId: entityId ?? '', label: 'the hledger journal', currency } : undefined;
    },
    period(_books, date) {
      const until = books.closedUntil;
      return until && date <= until ? { open: false, name: `up to ${until}` } : { open: true };
    },
    account(id) {
      const a = books.accounts.get(id);
      if (!a) return undefined;
      const incomeStatement = a.classification === 'REVENUE' || a.classification === 'EXPENSE';
      return { id, code: null, name: id, active: !books.inactive.has(id), postable: true, incomeStatement };
    },
    roleDefault(role) {
      const accountId = books.roles.get(role);
      return accountId ? { accountId } : { lookedFor: undefined };
    },
    vendor: (id) =>
      vendors.has(id) ? { id, name: leafName(id), active: !books.inactive.has(id) } : undefined,
    taxCode(id) {
      const rate = books.taxRates.get(id);
      if (rate === undefined) return undefined;
      const usable = validRate(rate);
      const rates = usable ? [{ id, name: id, rate, accountId: id }] : [];
      return { id, name: id, active: !books.inactive.has(id), rates, usable };
    },
    field: (id) => fieldOf(books, id),
    fields: () => [...books.fields.keys()].map((id) => fieldOf(books, id)!),
    option(fieldId, optionId) {
      const has = books.fields.get(fieldId)?.options.has(optionId);
      return has ? { id: optionId, name: optionId, active: true } : undefined;
    },
    bill(objectId) {
      const state = books.bills.get(objectId);
      if (!state) return undefined;
      const known = open.get(objectId);
      if (known) return known;
      // What is open is the state's: a planned payment counts in `paid`, as the write will.
      const bill: OpenBill = {
        id: state.code,
        label: `bill ${objectId} in hledger`,
        vendorId: state.vendorAccount,
        currency: state.commodity,
        payableAccountId: state.vendorAccount,
        get open() {
          return state.total - state.paid;
        },
        set open(value: number) {
          state.paid = state.total - value;
        },
      };
      open.set(objectId, bill);
      return bill;
    },
  };
}
