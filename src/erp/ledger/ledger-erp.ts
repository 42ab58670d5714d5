import type { Sql } from 'postgres';
import { type Logger, silentLogger } from '../../log.ts';
import type { ErpAdapter } from '../adapter.ts';
import type { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from '../chart.ts';
import { classifyThrown } from '../classify.ts';
import type { DefaultRole } from '../core/roles.ts';
import { ErpError } from '../errors.ts';
import { postOne } from '../post-one.ts';
import type { CheckResult, ErpWrite, LookupResult, ObjectKind, VendorInput, WriteResult } from '../types.ts';
import {
  readCustomFields,
  readFieldOptions,
  readGlAccounts,
  readTaxCodes,
  readTaxRates,
  readVendors,
} from './chart-read.ts';
import { checkMany } from './check-many.ts';
import { lookupPostings } from './lookup.ts';
import { type PostManyDeps, postMany } from './post-many.ts';
import { type LedgerTables, ledgerTables } from './tables.ts';

export interface LedgerErpOptions {
  /** A pool the caller owns; the ledger never ends it. */
  sql: Sql;
  /** The ledger's schema (migrated with db/ledger); need not be on the pool's search_path. */
  schema: string;
  /**
   * Bills link to `${deepLinkBase}/bills/${referenceId}`. Unset: no deep links (docs/platform.md
   * F42: only a public base URL makes a link the platform accepts and a bookkeeper can open).
   */
  deepLinkBase?: string;
  /** Accounts that override the ledger's stored posting defaults, by role. */
  defaults?: Partial<Record<DefaultRole, string>>;
  /** Items per write statement in postMany (default 2000: 500 to 10,000 all measured alike). */
  chunkSize?: number;
  log?: Logger;
}

/** Rethrows a failing read as an ErpError, so callers see one error type with a category. */
async function* guarded<T>(source: AsyncIterable<T>, what: string): AsyncIterable<T> {
  try {
    yield* source;
  } catch (error) {
    throw new ErpError(classifyThrown(error, what, 'read', what), { cause: error });
  }
}

/** The built-in double-entry ledger, in its own Postgres schema. */
export class LedgerErp implements ErpAdapter {
  readonly name = 'ledger';
  private readonly sql: Sql;
  private readonly tables: LedgerTables;
  private readonly deps: PostManyDeps;
  private readonly deepLink: (kind: ObjectKind, referenceId: string) => string | undefined;

  constructor(options: LedgerErpOptions) {
    this.sql = options.sql;
    this.tables = ledgerTables(options.sql, options.schema);
    const base = options.deepLinkBase?.replace(/\/+$/, '');
    this.deepLink = (kind, referenceId) =>
      kind === 'bill' && base ? `${base}/bills/${encodeURIComponent(referenceId)}` : undefined;
    this.deps = {
      sql: options.sql,
      tables: this.tables,
      batch: { defaults: options.defaults ?? {}, deepLink: this.deepLink },
      chunkSize: options.chunkSize ?? 2000,
      log: options.log ?? silentLogger,
    };
  }

  glAccounts(): AsyncIterable<GlAccount> {
    return guarded(readGlAccounts(this.sql, this.tables), 'GL accounts');
  }
  customFields(): AsyncIterable<CustomField> {
    return guarded(readCustomFields(this.sql, this.tables), 'custom fields');
  }
  fieldOptions(fieldId: string): AsyncIterable<FieldOption> {
    return guarded(readFieldOptions(this.sql, this.tables, fieldId), `options of field ${fieldId}`);
  }
  vendors(): AsyncIterable<ErpVendor> {
    return guarded(readVendors(this.sql, this.tables), 'vendors');
  }
  taxRates(): AsyncIterable<TaxRate> {
    return guarded(readTaxRates(this.sql, this.tables), 'tax rates');
  }
  taxCodes(): AsyncIterable<TaxCode> {
    return guarded(readTaxCodes(this.sql, this.tables), 'tax codes');
  }

  createVendor(input: VendorInput): Promise<WriteResult> {
    return postOne(this, input);
  }
  postMany(items: readonly ErpWrite[]): Promise<WriteResult[]> {
    return postMany(this.deps, items);
  }
  /** What postMany would answer now, writing nothing (a dry run's decisions). */
  checkMany(items: readonly ErpWrite[]): Promise<CheckResult[]> {
    return checkMany(this.deps, items);
  }
  /**
   * What the ERP holds for each key, in key order. Not part of the contract (the sync resolves
   * an uncertain outcome by posting again, adapter.ts): a read for tests and benchmarks.
   */
  async lookupMany(keys: readonly { kind: ObjectKind; objectId: string }[]): Promise<LookupResult[]> {
    try {
      return await lookupPostings(this.sql, this.tables, keys, this.deepLink);
    } catch (error) {
      throw new ErpError(classifyThrown(error, 'lookup', 'lookup'), { cause: error });
    }
  }

  async close(): Promise<void> {
    // The pool belongs to the caller.
  }
}
