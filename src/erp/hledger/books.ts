import type { GlClassification } from '../chart.ts';
import { DEFAULT_ROLES, type DefaultRole } from '../core/roles.ts';
import type { Currency } from '../types.ts';
import type { HledgerClient, HlPosting, HlTransaction } from './client.ts';
import { decodeId, minorOf } from './codes.ts';
import type { WrittenTransactions } from './written.ts';

/**
 * What the adapter reads from a journal through hledger-web, in one pass over `/accountnames`
 * and `/transactions`. hledger keeps accounts and transactions only; what else the sync needs
 * is declared in the journal itself, in a transaction tagged `ledgersync-chart:` (the chart
 * declaration, docs/extending.md "Worked example: hledger"):
 *
 *   2024-01-01 ledgersync chart  ; ledgersync-chart:, currency:USD, closed-until:2024-06-30, dimension:project, required-dimension:project, project:apollo
 *       liabilities:card      0  ; role:card_liability
 *       expenses:old          0  ; inactive:
 *       liabilities:vat:in5   0  ; tax-rate:0.05
 *
 * Transaction tags: the book currency (`currency-decimals:` defaults to 2), the lock date up to
 * which the books are closed, dimensions (a posting tag name), dimensions required on every
 * coded line, and each dimension's options as `<dimension>:<value>`. Zero postings: an account
 * that is inactive, fills a posting role, or is the account of a tax rate. Vendors are the
 * subaccounts of the accounts payable role's account (a bill credits its vendor's own account).
 * Account types come from the `type:` tag postings inherit from `account` directives (the API
 * of hledger-web 1.25 shows no declarations), else from the top-level name.
 */

export const CHART_TAG = 'ledgersync-chart';

interface PostedObject {
  kind: string;
  /** What the platform was told: the code, or a vendor's account. */
  reference: string;
}

interface BillState {
  /** The bill's transaction code (the OpenBill id). */
  code: string;
  vendorAccount: string;
  commodity: string;
  total: number;
  paid: number;
}

export interface HledgerBooks {
  accounts: Map<string, { classification: GlClassification }>;
  currency: Currency | null;
  closedUntil: string | null;
  inactive: Set<string>;
  roles: Map<DefaultRole, string>;
  /** Tax-rate account → rate (decimal string). */
  taxRates: Map<string, string>;
  /** Dimension → whether required, and its options. */
  fields: Map<string, { required: boolean; options: Set<string> }>;
  /** Transactions the sync wrote, by code. */
  posted: Map<string, PostedObject>;
  /** Bills by platform object id. */
  bills: Map<string, BillState>;
}

const TYPE_CLASSIFICATION: Record<string, GlClassification> = {
  A: 'ASSET',
  C: 'ASSET',
  L: 'LIABILITY',
  E: 'EQUITY',
  V: 'EQUITY',
  R: 'REVENUE',
  X: 'EXPENSE',
};

const TOP_LEVEL: [RegExp, GlClassification][] = [
  [/^assets?$/i, 'ASSET'],
  [/^liabilit(y|ies)$/i, 'LIABILITY'],
  [/^equity$/i, 'EQUITY'],
  [/^(revenues?|income)$/i, 'REVENUE'],
  [/^expenses?$/i, 'EXPENSE'],
];

const tagsOf = (tags: [string, string][], name: string) => tags.filter(([n]) => n === name).map(([, v]) => v);
const tagOf = (tags: [string, string][], name: string) => tagsOf(tags, name)[0];

/** An account's type from the nearest account (itself, then its parents) whose postings say it. */
function classify(name: string, typed: Map<string, string>): GlClassification {
  for (let at = name; at; at = at.includes(':') ? at.slice(0, at.lastIndexOf(':')) : '') {
    const type = typed.get(at);
    if (type && TYPE_CLASSIFICATION[type.charAt(0)]) return TYPE_CLASSIFICATION[type.charAt(0)]!;
  }
  const top = name.split(':')[0]!;
  return TOP_LEVEL.find(([pattern]) => pattern.test(top))?.[1] ?? 'UNKNOWN';
}

function readChart(t: HlTransaction, books: HledgerBooks): void {
  const currency = tagOf(t.ttags, 'currency');
  if (currency) {
    const decimals = Number(tagOf(t.ttags, 'currency-decimals') ?? 2);
    books.currency = { code: currency, exponent: Number.isInteger(decimals) ? decimals : 2 };
  }
  books.closedUntil = tagOf(t.ttags, 'closed-until') ?? books.closedUntil;
  for (const field of tagsOf(t.ttags, 'dimension')) {
    books.fields.set(field, {
      required: tagsOf(t.ttags, 'required-dimension').includes(field),
      options: new Set(tagsOf(t.ttags, field).filter(Boolean)),
    });
  }
  for (const p of t.tpostings) {
    const own = new Set(p.ptags.map(([n]) => n));
    if (own.has('inactive')) books.inactive.add(p.paccount);
    for (const role of tagsOf(p.ptags, 'role'))
      if ((DEFAULT_ROLES as readonly string[]).includes(role))
        books.roles.set(role as DefaultRole, p.paccount);
    const rate = tagOf(p.ptags, 'tax-rate');
    if (rate !== undefined) books.taxRates.set(p.paccount, rate);
  }
}

const roleLeg = (t: HlTransaction): HlPosting | undefined =>
  t.tpostings.find((p) => tagOf(p.ptags, 'ls-role') === 'accounts_payable');

/** The sync's own transactions: their codes, and what is open on each bill. */
function readPosted(t: HlTransaction, books: HledgerBooks, payments: HlTransaction[]): void {
  const [, kind, encodedId] = /^ls:([a-z_]+):(.+)$/.exec(t.tcode) ?? [];
  if (!kind || !encodedId) return;
  const reference = kind === 'vendor' ? (t.tpostings[0]?.paccount ?? t.tcode) : t.tcode;
  books.posted.set(t.tcode, { kind, reference });
  const leg = roleLeg(t);
  if (kind === 'bill' && leg?.pamount[0]) {
    const amount = leg.pamount[0];
    books.bills.set(decodeId(encodedId), {
      code: t.tcode,
      vendorAccount: leg.paccount,
      commodity: amount.acommodity,
      total: -minorOf(amount, books.currency?.exponent ?? amount.aquantity.decimalPlaces),
      paid: 0,
    });
  }
  if (kind === 'bill_payment') payments.push(t);
}

/** The journal as hledger-web shows it, completed with what this process wrote and it does not show yet. */
export async function loadBooks(client: HledgerClient, written?: WrittenTransactions): Promise<HledgerBooks> {
  const [shownNames, shownTransactions] = await Promise.all([client.accountNames(), client.transactions()]);
  const { names, transactions } = written
    ? written.complete(shownNames, shownTransactions)
    : { names: shownNames, transactions: shownTransactions };
  const books: HledgerBooks = {
    accounts: new Map(),
    currency: null,
    closedUntil: null,
    inactive: new Set(),
    roles: new Map(),
    taxRates: new Map(),
    fields: new Map(),
    posted: new Map(),
    bills: new Map(),
  };
  const typed = new Map<string, string>();
  for (const t of transactions) {
    for (const p of t.tpostings) {
      const type = tagOf(p.ptags, 'type');
      if (type) typed.set(p.paccount, type);
    }
    if (t.ttags.some(([n]) => n === CHART_TAG)) readChart(t, books);
  }
  const payments: HlTransaction[] = [];
  for (const t of transactions) readPosted(t, books, payments);
  for (const p of payments) {
    const bill = books.bills.get(decodeId(tagOf(p.ttags, 'ls-pays') ?? ''));
    const amount = roleLeg(p)?.pamount[0];
    if (bill && amount)
      bill.paid += minorOf(amount, books.currency?.exponent ?? amount.aquantity.decimalPlaces);
  }
  for (const name of names) books.accounts.set(name, { classification: classify(name, typed) });
  return books;
}
