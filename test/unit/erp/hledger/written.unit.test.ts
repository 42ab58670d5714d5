import { describe, expect, it } from 'vitest';
import { KeyLocks } from '../../../../src/erp/core/key-locks.ts';
import { loadBooks } from '../../../../src/erp/hledger/books.ts';
import type { HledgerClient, HlTransaction, NewTransaction } from '../../../../src/erp/hledger/client.ts';
import { postMany } from '../../../../src/erp/hledger/post-many.ts';
import { asListed, tagsOfComment, WrittenTransactions } from '../../../../src/erp/hledger/written.ts';
import type { BillInput, BillPaymentInput, VendorInput } from '../../../../src/erp/types.ts';

/** A chart as the journal declares it (src/erp/hledger/books.ts), in `/transactions` shape. */
const CHART: HlTransaction = {
  tindex: 1,
  tdate: '2024-01-01',
  tcode: '',
  tdescription: 'ledgersync chart',
  ttags: [
    ['ledgersync-chart', ''],
    ['currency', 'USD'],
  ],
  tpostings: [
    { paccount: 'liabilities:payable', pamount: [], ptags: [['role', 'accounts_payable']] },
    { paccount: 'liabilities:payable:Acme Inc', pamount: [], ptags: [] },
    { paccount: 'assets:bank', pamount: [], ptags: [['role', 'bank']] },
  ],
};
const ACCOUNTS = ['liabilities:payable', 'liabilities:payable:Acme Inc', 'expenses:office', 'assets:bank'];

/**
 * hledger-web answering an add before its reads show it: what is added stays out of
 * `/transactions` and `/accountnames` until `catchUp()` (as when it has not reloaded the file).
 */
function laggingJournal() {
  const added: NewTransaction[] = [];
  let shown = 0;
  const client = {
    async accountNames() {
      const names = added.slice(0, shown).flatMap((t) => t.postings.map((p) => p.account));
      return [...new Set([...ACCOUNTS, ...names])];
    },
    async transactions() {
      return [CHART, ...added.slice(0, shown).map(asListed)];
    },
    async add(t: NewTransaction) {
      added.push(t);
    },
  };
  return { client: client as unknown as HledgerClient, added, catchUp: () => (shown = added.length) };
}

const bill: BillInput = {
  kind: 'bill',
  objectId: 'bill-1',
  date: '2025-03-15',
  entityId: null,
  currency: { code: 'USD', exponent: 2 },
  memo: 'office chairs',
  totalMinor: 120_000,
  counterpart: { role: 'vendor', id: 'liabilities:payable:Acme Inc', name: 'Acme Inc' },
  vendorId: 'liabilities:payable:Acme Inc',
  invoiceNumber: 'INV-1',
  dueDate: '2025-04-15',
  lines: [{ amountMinor: 120_000, glAccountId: 'expenses:office', dimensions: {}, memo: '' }],
};
const payment = (objectId: string, totalMinor: number): BillPaymentInput => ({
  kind: 'bill_payment',
  objectId,
  date: '2025-03-20',
  entityId: null,
  currency: { code: 'USD', exponent: 2 },
  memo: 'pay',
  totalMinor,
  counterpart: null,
  billObjectId: 'bill-1',
});

const depsOf = (client: HledgerClient) => ({
  client,
  locks: new KeyLocks(),
  written: new WrittenTransactions(),
  deepLink: () => undefined,
});

describe('hledger adapter: what it wrote counts before hledger-web shows it', () => {
  it('reads the tags of its own comments as hledger does', () => {
    expect(tagsOfComment('a memo, ls-role:accounts_payable, project:apollo')).toEqual([
      ['ls-role', 'accounts_payable'],
      ['project', 'apollo'],
    ]);
    expect(tagsOfComment('')).toEqual([]);
  });

  it('a payment posted right after its bill finds the bill, and a second payment finds it paid', async () => {
    const journal = laggingJournal();
    const deps = depsOf(journal.client);
    const [posted] = await postMany(deps, [bill]);
    expect(posted).toMatchObject({ ok: true, replayed: false });
    const [paid] = await postMany(deps, [payment('pay-1', 120_000)]);
    expect(paid, JSON.stringify(paid)).toMatchObject({ ok: true, replayed: false });
    // The bill is fully paid by a payment hledger-web does not show yet either.
    const [again] = await postMany(deps, [payment('pay-2', 1)]);
    expect(again).toMatchObject({ ok: false });
    // Nothing was added twice: a repeat is a replay.
    const [replay] = await postMany(deps, [bill]);
    expect(replay).toMatchObject({ ok: true, replayed: true });
    expect(journal.added.map((t) => t.code)).toEqual(['ls:bill:bill-1', 'ls:bill_payment:pay-1']);
  });

  it('a created vendor is in the books at once, and forgotten once hledger-web shows it', async () => {
    const journal = laggingJournal();
    const deps = depsOf(journal.client);
    const vendor: VendorInput = { kind: 'vendor', objectId: 'v-1', name: 'Globex' };
    const [created] = await postMany(deps, [vendor]);
    expect(created).toMatchObject({ ok: true, referenceId: 'liabilities:payable:Globex' });
    const books = await loadBooks(journal.client, deps.written);
    expect(books.accounts.has('liabilities:payable:Globex')).toBe(true);
    expect(books.posted.get('ls:vendor:v-1')?.reference).toBe('liabilities:payable:Globex');
    expect(deps.written.size).toBe(1);
    journal.catchUp();
    const shown = await loadBooks(journal.client, deps.written);
    expect(shown.posted.has('ls:vendor:v-1')).toBe(true);
    expect(deps.written.size).toBe(0);
  });
});
