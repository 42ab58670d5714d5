import { type Logger, silentLogger } from '../../log.ts';
import type { ErpAdapter } from '../adapter.ts';
import type { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from '../chart.ts';
import { KeyLocks } from '../core/key-locks.ts';
import { ErpError } from '../errors.ts';
import { postOne } from '../post-one.ts';
import type { ErpWrite, LookupResult, ObjectKind, VendorInput, WriteResult } from '../types.ts';
import {
  type ChartScope,
  chartScopes,
  readCustomFields,
  readFieldOptions,
  readGlAccounts,
  readTaxCodes,
  readTaxRates,
  readVendors,
} from './chart-read.ts';
import { type Companies, CompaniesCache } from './companies.ts';
import { readFailureOf } from './faults.ts';
import { lookupObjects, type RecordRef } from './lookup.ts';
import { TrytonModels } from './models.ts';
import { DEFAULT_JOURNAL_CODE, DEFAULT_TRYTON_CONCURRENCY, type TrytonErpOptions } from './options.ts';
import { type PostManyDeps, postMany } from './post-many.ts';
import { TRYTON_CALL_TIMEOUT_MS, TrytonRpc } from './rpc.ts';
import { TRYTON_BATCH_SIZE } from './write-batch.ts';

/** Rethrows a failing read as an ErpError with its category. */
async function* guarded<T>(source: () => AsyncIterable<T>, what: string): AsyncIterable<T> {
  try {
    yield* source();
  } catch (error) {
    throw new ErpError(readFailureOf(error, what), { cause: error });
  }
}

/**
 * The ERP contract over a Tryton 6.0 server's JSON-RPC: the chart of accounts read from Tryton's
 * accounts, analytic axes, parties and taxes; objects written as posted supplier invoices and
 * posted moves in a dedicated journal, each carrying its platform object id (see keys.ts).
 */
export class TrytonErp implements ErpAdapter {
  readonly name = 'tryton';
  /**
   * Tryton carries out a call it received even when its caller is gone, and nothing in it stops
   * a second create of the same reference (keys.ts): after an interrupted run, an object is
   * written again only once the interrupted call has had its time (TRYTON_CALL_TIMEOUT_MS).
   */
  readonly writeSettleMs: number;
  private readonly m: TrytonModels;
  private readonly deps: PostManyDeps;
  private readonly log: Logger;
  private readonly companiesCache: CompaniesCache;

  constructor(options: TrytonErpOptions) {
    this.m = new TrytonModels(new TrytonRpc(options));
    this.writeSettleMs = options.timeoutMs ?? TRYTON_CALL_TIMEOUT_MS;
    this.log = options.log ?? silentLogger;
    this.companiesCache = new CompaniesCache(this.m, options.companyByEntity);
    const base = options.deepLinkBase?.replace(/\/+$/, '');
    const database = encodeURIComponent(options.database);
    // The platform takes a deep link on bill syncs only (docs/platform.md F14): the supplier
    // invoice, and only under a configured public base (F42: never the JSON-RPC URL itself).
    const deepLink = (kind: ObjectKind, record: RecordRef) =>
      kind === 'bill' && base ? `${base}/#${database}/model/${record.model}/${record.id}` : undefined;
    const locks = new KeyLocks();
    this.deps = {
      m: this.m,
      exclusive: (key, fn) => locks.withKeys([key], fn),
      log: this.log,
      deepLink,
      locks,
      journalCode: options.journalCode ?? DEFAULT_JOURNAL_CODE,
      defaults: options.defaults ?? {},
      companies: () => this.companiesCache.get(),
      concurrency: options.concurrency ?? DEFAULT_TRYTON_CONCURRENCY,
      batchSize: options.batchSize ?? TRYTON_BATCH_SIZE,
    };
  }

  private companies(): Promise<Companies> {
    return this.companiesCache.get();
  }

  /** Reads the chart of every company the adapter works in (chart-read.ts). */
  private chart<T>(read: (scopes: ChartScope[]) => AsyncIterable<T>): () => AsyncIterable<T> {
    const m = this.m;
    const companies = () => this.companies();
    return async function* () {
      yield* read(chartScopes(m, await companies()));
    };
  }

  glAccounts(): AsyncIterable<GlAccount> {
    return guarded(this.chart(readGlAccounts), 'GL accounts');
  }
  customFields(): AsyncIterable<CustomField> {
    return guarded(this.chart(readCustomFields), 'custom fields');
  }
  fieldOptions(fieldId: string): AsyncIterable<FieldOption> {
    return guarded(
      this.chart((scopes) => readFieldOptions(scopes, fieldId)),
      `options of field ${fieldId}`,
    );
  }
  vendors(): AsyncIterable<ErpVendor> {
    const m = this.m;
    const companies = () => this.companies();
    return guarded(async function* () {
      yield* readVendors(m, await companies());
    }, 'vendors');
  }
  taxRates(): AsyncIterable<TaxRate> {
    return guarded(this.chart(readTaxRates), 'tax rates');
  }
  taxCodes(): AsyncIterable<TaxCode> {
    return guarded(this.chart(readTaxCodes), 'tax codes');
  }

  createVendor(input: VendorInput): Promise<WriteResult> {
    return postOne(this, input);
  }
  postMany(items: readonly ErpWrite[]): Promise<WriteResult[]> {
    return postMany(this.deps, items);
  }
  /**
   * What the ERP holds for each key, in key order. Not part of the contract (the sync resolves
   * an uncertain outcome by posting again, adapter.ts): a read for tests and benchmarks.
   */
  async lookupMany(keys: readonly { kind: ObjectKind; objectId: string }[]): Promise<LookupResult[]> {
    try {
      const companyIds = (await this.companies()).all.map((c) => c.id);
      return await lookupObjects(this.m, companyIds, keys, this.deps.deepLink);
    } catch (error) {
      throw new ErpError(readFailureOf(error, 'lookup'), { cause: error });
    }
  }

  async close(): Promise<void> {
    // Sessions expire on Tryton's side; fetch keeps no connection of ours open.
  }
}
