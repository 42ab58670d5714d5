import postgres, { type Sql } from 'postgres';
import { afterAll, beforeAll, inject } from 'vitest';
import { migrate, WORKER_MIGRATIONS } from '../../db/runner.ts';
import { uniqueName } from './unique.ts';

export interface TestDatabase {
  /** A pool whose search_path is this file's own schema. Available from beforeAll on. */
  readonly sql: Sql;
  readonly schema: string;
  readonly url: string;
  /** Another fresh schema name (e.g. for the ledger ERP), dropped in afterAll with the first. */
  newSchema(suffix: string): string;
}

/**
 * Gives the calling test file its own Postgres schema (with the worker's migrations applied
 * unless `migrate: false`), so files run in parallel on one server. Dropped in afterAll.
 */
export function useTestDatabase(options: { migrate?: boolean } = {}): TestDatabase {
  const url = inject('databaseUrl');
  const schema = uniqueName('t');
  const schemas = [schema];
  let pool: Sql | undefined;
  beforeAll(async () => {
    pool = postgres(url, { max: 8, onnotice: () => {}, connection: { search_path: schema } });
    await pool`create schema if not exists ${pool(schema)}`;
    if (options.migrate !== false) await migrate(pool, { schema, dir: WORKER_MIGRATIONS });
  });
  afterAll(async () => {
    if (!pool) return;
    for (const name of schemas) await pool`drop schema if exists ${pool(name)} cascade`;
    await pool.end({ timeout: 5 });
  });
  return {
    get sql() {
      if (!pool) throw new Error('useTestDatabase().sql is available from beforeAll on');
      return pool;
    },
    schema,
    url,
    newSchema(suffix: string) {
      const name = `${schema}_${suffix}`;
      schemas.push(name);
      return name;
    },
  };
}
