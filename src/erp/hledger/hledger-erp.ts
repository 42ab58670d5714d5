import type { ErpAdapter } from '../adapter.ts';
import type { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from '../chart.ts';
import { KeyLocks } from '../core/key-locks.ts';
import { ErpError } from '../errors.ts';
import { postOne } from '../post-one.ts';
import type { ObjectKind, VendorInput, WriteResult } from '../types.ts';
import { type HledgerBooks, loadBooks } from './books.ts';
import { HLEDGER_CALL_TIMEOUT_MS, HledgerClient, type HledgerConnection } from './client.ts';
import { faultInfo } from './faults.ts';
import { type PostManyDeps, postMany } from './post-many.ts';
import { leafName, validRate, vendorAccounts } from './posting-chart.ts';
import { WrittenTransactions } from './written.ts';

export interface HledgerErpOptions extends HledgerConnection {
  /** hledger-web's public address for bill deep links; unset, bills carry none (docs/platform.md F42). */
  deepLinkBase?: string;
}

const POSTING_KINDS_WITH_LINES = ['card_transaction', 'reimbursement', 'bill'];

/**
 * The ERP contract over hledger-web's JSON API: the chart read from the journal's accounts and
 * its `ledgersync-chart:` declaration (books.ts), objects written as transactions coded
 * `ls:<kind>:<object id>` (codes.ts) and planned by the posting core.
 */
export class HledgerErp implements ErpAdapter {
  readonly name = 'hledger';
  /**
   * hledger-web carries out an add whose caller is gone, and the look-up before an add is this
   * adapter's only guard (written.ts): after an interrupted run, an object is written again
   * only once the interrupted call has had its time (src/sync/sync-ledger/in-doubt.ts).
   */
  readonly writeSettleMs: number;
  private readonly client: HledgerClient;
  private readonly deps: PostManyDeps;

  constructor(options: HledgerErpOptions) {
    this.client = new HledgerClient(options);
    this.writeSettleMs = options.timeoutMs ?? HLEDGER_CALL_TIMEOUT_MS;
    const base = options.deepLinkBase?.replace(/\/+$/, '');
    // The platform takes a deep link on bills only (docs/platform.md F14), under a configured
    // public base (F42): hledger-web's journal filtered to the bill's code.
    const deepLink = (kind: ObjectKind, code: string) =>
      kind === 'bill' && base ? `${base}/journal?q=${encodeURIComponent(`code:${code}`)}` : undefined;
    this.deps = { client: this.client, locks: new KeyLocks(), written: new WrittenTransactions(), deepLink };
  }

  /** The journal as read now; a failing read throws an ErpError with its category. */
  private async books(what: string): Promise<HledgerBooks> {
    try {
      return await loadBooks(this.client, this.deps.written);
    } catch (error) {
      throw new ErpError(faultInfo(error, what, 'read', what), { cause: error });
    }
  }

  async *glAccounts(): AsyncIterable<GlAccount> {
    const books = await this.books('chart of accounts');
    for (const [id, { classification }] of books.accounts) {
      yield { id, name: id, code: '', classification, active: !books.inactive.has(id), hidden: false };
    }
  }

  async *customFields(): AsyncIterable<CustomField> {
    const books = await this.books('dimensions');
    for (const [id, f] of books.fields) {
      const requiredFor = f.required ? POSTING_KINDS_WITH_LINES : [];
      yield { id, name: id, inputType: 'SINGLE_CHOICE', active: true, hidden: false, requiredFor };
    }
  }

  async *fieldOptions(fieldId: string): AsyncIterable<FieldOption> {
    const books = await this.books('dimension values');
    for (const value of books.fields.get(fieldId)?.options ?? []) {
      yield { fieldId, id: value, value, code: '', active: true, hidden: false };
    }
  }

  async *vendors(): AsyncIterable<ErpVendor> {
    const books = await this.books('vendors');
    for (const id of vendorAccounts(books)) {
      yield { id, name: leafName(id), code: '', active: !books.inactive.has(id) };
    }
  }

  async *taxRates(): AsyncIterable<TaxRate> {
    const books = await this.books('tax rates');
    for (const [id, rate] of books.taxRates) {
      if (validRate(rate)) yield { id, name: id, rate, glAccountId: id };
    }
  }

  async *taxCodes(): AsyncIterable<TaxCode> {
    const books = await this.books('tax codes');
    for (const [id, rate] of books.taxRates) {
      yield { id, name: id, rateIds: validRate(rate) ? [id] : [], active: !books.inactive.has(id) };
    }
  }

  createVendor(input: VendorInput): Promise<WriteResult> {
    return postOne(this, input);
  }

  postMany(items: readonly unknown[]): Promise<WriteResult[]> {
    return postMany(this.deps, items);
  }

  /** Nothing to release: every call is one HTTP request. */
  async close(): Promise<void> {}
}
