import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from 'postgres';
import { type Logger, silentLogger } from '../src/log.ts';

/** The worker's own migrations; the built-in ERP keeps its own in db/ledger. */
export const WORKER_MIGRATIONS = fileURLToPath(new URL('./migrations', import.meta.url));
export const LEDGER_MIGRATIONS = fileURLToPath(new URL('./ledger', import.meta.url));

export interface MigrateOptions {
  /** Schema the migrations run in; created when missing. The SQL files use unqualified names. */
  schema: string;
  /** Absolute path of a folder of numbered files: 0001_init.sql, 0002_....sql */
  dir: string;
  log?: Logger;
}

const FILE_NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

export async function listMigrations(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => FILE_NAME.test(n)).sort();
  const numbers = names.map((n) => n.slice(0, 4));
  const duplicate = numbers.find((n, i) => numbers.indexOf(n) !== i);
  if (duplicate) throw new Error(`Two migrations in ${dir} share the number ${duplicate}`);
  return names;
}

/**
 * Applies the pending migrations of one folder to one schema, forward only.
 *
 * Safe when several processes migrate at once: everything runs in one transaction that first
 * takes a transaction-scoped advisory lock keyed by schema and folder, so the second process
 * waits, then finds every file already recorded and applies nothing.
 */
export async function migrate(sql: Sql, options: MigrateOptions): Promise<{ applied: string[] }> {
  const log = options.log ?? silentLogger;
  const files = await listMigrations(options.dir);
  const lockKey = `ledgersync.migrate:${options.schema}:${options.dir.split('/').pop()}`;
  const table = `schema_migrations_${options.dir.split('/').pop()}`;
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${lockKey}))`;
    await tx`create schema if not exists ${tx(options.schema)}`;
    await tx`select set_config('search_path', ${options.schema}, true)`;
    await tx`create table if not exists ${tx(table)} (
      name text primary key,
      applied_at timestamptz not null default now()
    )`;
    const done = new Set((await tx`select name from ${tx(table)}`).map((r) => r.name as string));
    for (const name of files) {
      if (done.has(name)) continue;
      const text = await readFile(join(options.dir, name), 'utf8');
      await tx.unsafe(text);
      await tx`insert into ${tx(table)} (name) values (${name})`;
      applied.push(name);
      log.info({ migration: name, schema: options.schema }, 'applied migration');
    }
  });
  return { applied };
}

/** Applies the worker's schema and the built-in ERP's schema. */
export async function migrateAll(
  sql: Sql,
  options: { schema: string; ledgerSchema?: string; log?: Logger },
): Promise<{ applied: string[] }> {
  const worker = await migrate(sql, { schema: options.schema, dir: WORKER_MIGRATIONS, log: options.log });
  const ledgerSchema = options.ledgerSchema;
  if (!ledgerSchema) return worker;
  const ledger = await migrate(sql, { schema: ledgerSchema, dir: LEDGER_MIGRATIONS, log: options.log });
  return { applied: [...worker.applied, ...ledger.applied.map((n) => `ledger/${n}`)] };
}
