import { DEFAULT_CLIENT } from '@ledgersync/stub';
import postgres, { type Sql } from 'postgres';
import { createErp, type ErpAdapter } from '../../src/erp/index.ts';
import { createLogger, type Logger } from '../../src/log.ts';
import { createPlatformClient, type PlatformClient } from '../../src/platform/index.ts';
import type { SyncPlatform } from '../../src/sync/objects/index.ts';
import { syncPlatformFrom } from '../../src/sync/objects/index.ts';
import { OutboxIdempotencyRecords } from '../../src/sync/reporting/index.ts';
import { timedErp, timedPlatform, timedSql } from './instrument.ts';
import { Meter } from './meter.ts';
import type { WorkerConfig } from './worker-config.ts';

export const BENCH_SCOPES =
  'accounting:read accounting:write transactions:read reimbursements:read transfers:read cashbacks:read bills:read entities:read';

export interface WorkerDeps {
  sql: Sql;
  erp: ErpAdapter;
  client: PlatformClient;
  syncPlatform: SyncPlatform;
  log: Logger;
  meter: Meter;
  close(): Promise<void>;
}

/** The worker's pool, ERP, platform client and port, each timed into one meter. */
export function workerDeps(config: WorkerConfig): WorkerDeps {
  const meter = new Meter();
  const log = createLogger({
    level: process.env.BENCH_LOG_LEVEL ?? 'warn',
    pretty: false,
    destination: process.stderr,
  });
  const raw = postgres(config.databaseUrl, {
    max: 8,
    onnotice: () => {},
    connection: { search_path: config.schema },
  });
  const sql = timedSql(raw, meter);
  const client = createPlatformClient({
    baseUrl: config.apiUrl,
    clientId: DEFAULT_CLIENT.client_id,
    clientSecret: DEFAULT_CLIENT.client_secret,
    scopes: BENCH_SCOPES,
    redis: config.redisUrl,
    keyPrefix: config.redisPrefix,
    // As the product keeps them (src/app/app-context.ts): with the outbox, in PostgreSQL.
    idempotency: new OutboxIdempotencyRecords(sql, config.apiUrl),
    ...(config.limiter ? { limiter: config.limiter } : {}),
    log,
  });
  // The ERP's statements are timed apart from the pipeline's own (same pool, another label).
  const erpSql = timedSql(raw, meter, 'erp sql');
  const erp = timedErp(
    createErp(
      config.tryton
        ? { ...config.tryton, kind: 'tryton' }
        : { kind: 'ledger', sql: erpSql, schema: config.ledgerSchema },
      { log },
    ),
    meter,
  );
  const syncPlatform = timedPlatform(syncPlatformFrom(client), meter);
  return {
    sql,
    erp,
    client,
    syncPlatform,
    log,
    meter,
    async close() {
      await erp.close();
      await client.close();
      await raw.end({ timeout: 5 });
    },
  };
}
