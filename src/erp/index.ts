import type { Sql } from 'postgres';
import type { Logger } from '../log.ts';
import type { ErpAdapter } from './adapter.ts';
import type { DefaultRole } from './core/roles.ts';
import { HledgerErp, type HledgerErpOptions } from './hledger/hledger-erp.ts';
import { HttpErp, type HttpErpOptions } from './http/http-erp.ts';
import { LedgerErp } from './ledger/ledger-erp.ts';
import type { TrytonErpOptions } from './tryton/options.ts';
import { TrytonErp } from './tryton/tryton-erp.ts';
import { validatingAdapter } from './validating-adapter.ts';

export type { ErpAdapter } from './adapter.ts';
export * from './chart.ts';
export * from './errors.ts';
export * from './parsed-write.ts';
export * from './types.ts';

/** The built-in ERP: a schema of the worker's own Postgres (or another pool's). */
interface LedgerErpConfig {
  kind: 'ledger';
  sql: Sql;
  schema: string;
  deepLinkBase?: string;
  defaults?: Partial<Record<DefaultRole, string>>;
  chunkSize?: number;
}

/** A Tryton 6.0 server over JSON-RPC (see docs/tryton.md). */
export interface TrytonErpConfig extends Omit<TrytonErpOptions, 'log'> {
  kind: 'tryton';
}

/** A service implementing the HTTP ERP contract (docs/erp-http.md). */
interface HttpErpConfig extends Omit<HttpErpOptions, 'log'> {
  kind: 'http';
}

/** A journal served by hledger-web's JSON API (docs/extending.md "Worked example: hledger"). */
interface HledgerErpConfig extends HledgerErpOptions {
  kind: 'hledger';
}

/** One variant per adapter. */
export type ErpConfig = LedgerErpConfig | TrytonErpConfig | HttpErpConfig | HledgerErpConfig;

export interface CreateErpOptions {
  log?: Logger;
  /** Parse every answer of the adapter (default true); off only for benchmarks of the adapter itself. */
  validateAnswers?: boolean;
}

/** Builds the configured ERP adapter. Takes typed options; never reads the environment. */
export function createErp(config: ErpConfig, options: CreateErpOptions = {}): ErpAdapter {
  let adapter: ErpAdapter;
  switch (config.kind) {
    case 'ledger':
      adapter = new LedgerErp({ ...config, ...(options.log ? { log: options.log } : {}) });
      break;
    case 'tryton': {
      const { kind: _kind, ...tryton } = config;
      adapter = new TrytonErp({ ...tryton, ...(options.log ? { log: options.log } : {}) });
      break;
    }
    case 'http': {
      const { kind: _kind, ...http } = config;
      adapter = new HttpErp({ ...http, ...(options.log ? { log: options.log } : {}) });
      break;
    }
    case 'hledger': {
      const { kind: _kind, ...hledger } = config;
      adapter = new HledgerErp(hledger);
      break;
    }
    default: {
      const unknown: never = config;
      throw new Error(`unknown ERP kind: ${String((unknown as { kind?: unknown }).kind)}`);
    }
  }
  return options.validateAnswers === false ? adapter : validatingAdapter(adapter);
}
export { capitalized } from './core/terms.ts';
export { openApiText } from './http/openapi.ts';
export { buildErpService } from './http/serve.ts';
export { type ChartSummary, chartSummary } from './ledger/chart-summary.ts';
export { LedgerChartWriter } from './ledger/chart-write.ts';
export { holdsOtherBooks, seedKitBooks } from './ledger/kit-books.ts';
export { LedgerAdmin } from './ledger/ledger-admin.ts';
export { migrateLedger } from './ledger/migrate.ts';
export { type SeedCounts, seedLedger } from './ledger/seed.ts';
export { seededRandom } from './ledger/seed-chart.ts';
export { formatTrialBalance, trialBalance, trialBalanceTotals } from './ledger/trial-balance.ts';
export { formatMinor } from './money.ts';
export { postOne } from './post-one.ts';
export { DecimalValue, decimal } from './tryton/codec.ts';
export { TrytonModels } from './tryton/models.ts';
export { DEFAULT_TRYTON_CONCURRENCY, trytonOptionsFrom } from './tryton/options.ts';
export { type TrytonConnection, TrytonRpc } from './tryton/rpc.ts';
export { TrytonErp } from './tryton/tryton-erp.ts';
