import type { Sql } from 'postgres';
import { LEDGER_MIGRATIONS, migrate } from '../../../db/runner.ts';
import type { Logger } from '../../log.ts';

/** Creates or upgrades the ledger's schema (db/ledger/*.sql); safe to run concurrently. */
export function migrateLedger(sql: Sql, schema: string, log?: Logger): Promise<{ applied: string[] }> {
  return migrate(sql, { schema, dir: LEDGER_MIGRATIONS, ...(log ? { log } : {}) });
}
