import { type Logger, silentLogger } from '../../log.ts';
import { BatchFirstErp } from '../batch-first-adapter.ts';
import type { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from '../chart.ts';
import { ErpError } from '../errors.ts';
import type { ErpWrite, LookupResult, ObjectKind, WriteResult } from '../types.ts';
import {
  readCustomFields,
  readFieldOptions,
  readGlAccounts,
  readTaxCodes,
  readTaxRates,
  readVendors,
} from './chart-read.ts';
import { readFailureOf } from './faults.ts';
import { KeyLocks } from './key-locks.ts';
import { lookupObjects, type RecordRef } from './lookup.ts';
import { TrytonModels } from './models.ts';
import { DEFAULT_JOURNAL_CODE, type TrytonErpOptions } from './options.ts';
import { type PostManyDeps, postMany } from './post-many.ts';
import { TrytonRpc } from './rpc.ts';

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
export class TrytonErp extends BatchFirstErp {
  readonly name = 'tryton';
  private readonly m: TrytonModels;
  private readonly deps: PostManyDeps;
  private readonly log: Logger;

  constructor(options: TrytonErpOptions) {
    super();
    this.m = new TrytonModels(new TrytonRpc(options));
    this.log = options.log ?? silentLogger;
    const base = (options.deepLinkBase ?? options.url).replace(/\/+$/, '');
    const database = encodeURIComponent(options.database);
    // The platform takes a deep link on bill syncs only (docs/platform.md F14): the supplier invoice.
    const deepLink = (kind: ObjectKind, record: RecordRef) =>
      kind === 'bill' ? `${base}/#${database}/model/${record.model}/${record.id}` : undefined;
    const locks = new KeyLocks();
    this.deps = {
      m: this.m,
      exclusive: (key, fn) => locks.withKeys([key], fn),
      log: this.log,
      deepLink,
      locks,
      journalCode: options.journalCode ?? DEFAULT_JOURNAL_CODE,
      defaults: options.defaults ?? {},
      concurrency: options.concurrency ?? 4,
    };
  }

  glAccounts(): AsyncIterable<GlAccount> {
    return guarded(() => readGlAccounts(this.m), 'GL accounts');
  }
  customFields(): AsyncIterable<CustomField> {
    return guarded(() => readCustomFields(this.m), 'custom fields');
  }
  fieldOptions(fieldId: string): AsyncIterable<FieldOption> {
    return guarded(() => readFieldOptions(this.m, fieldId), `options of field ${fieldId}`);
  }
  vendors(): AsyncIterable<ErpVendor> {
    return guarded(() => readVendors(this.m), 'vendors');
  }
  taxRates(): AsyncIterable<TaxRate> {
    return guarded(() => readTaxRates(this.m), 'tax rates');
  }
  taxCodes(): AsyncIterable<TaxCode> {
    return guarded(() => readTaxCodes(this.m), 'tax codes');
  }

  postMany(items: readonly ErpWrite[]): Promise<WriteResult[]> {
    return postMany(this.deps, items);
  }
  async lookupMany(keys: readonly { kind: ObjectKind; objectId: string }[]): Promise<LookupResult[]> {
    try {
      return await lookupObjects(this.m, keys, this.deps.deepLink);
    } catch (error) {
      throw new ErpError(readFailureOf(error, 'lookup'), { cause: error });
    }
  }

  async close(): Promise<void> {
    // Sessions expire on Tryton's side; fetch keeps no connection of ours open.
  }
}
