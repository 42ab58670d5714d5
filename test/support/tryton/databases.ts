import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import postgres, { type Sql } from 'postgres';
import { withFileLock } from '../../../src/infra/index.ts';
import { TRYTON_MODULES, TRYTOND_ADMIN } from './install.ts';
import { STATE_DIR, trytonDatabaseUri } from './server.ts';
import { setUpTrytonBooks } from './world-setup.ts';

/**
 * Tryton databases on the test PostgreSQL. Activating the modules takes about 30 s and setting
 * up the books a few more, so both happen once into a template database whose name derives from
 * the module list and the setup's version; it is marked ready with a comment, and survives
 * between runs where the PostgreSQL data does. Every test file then gets its own database,
 * cloned from the template in about a second, and drops it at the end.
 */

const run = promisify(execFile);

/** Bump when world-setup.ts or world-chart.ts change what the books hold. */
const SETUP_VERSION = 6;
export const ADMIN_USER = 'admin';
// Loopback-only test server; like the embedded PostgreSQL's, a fixed password exposes nothing.
export const ADMIN_PASSWORD = 'ledgersync-tryton-admin';
const READY = 'ledgersync tryton template ready';

export function templateName(): string {
  const hash = createHash('sha256')
    .update(`${TRYTON_MODULES.join(',')}|${SETUP_VERSION}`)
    .digest('hex')
    .slice(0, 10);
  return `tryton_tpl_${hash}`;
}

function adminPool(databaseUrl: string): Sql {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return postgres(url.toString(), { max: 1, onnotice: () => {} });
}

async function dropConnections(sql: Sql, name: string): Promise<void> {
  await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`;
}

async function activateModules(databaseUrl: string, name: string): Promise<void> {
  const conf = join(STATE_DIR, `admin-${process.pid}.conf`);
  await writeFile(
    conf,
    `[database]\nuri = ${trytonDatabaseUri(databaseUrl)}\npath = ${join(STATE_DIR, 'files')}\n`,
    {
      mode: 0o600,
    },
  );
  const passFile = join(STATE_DIR, `admin-${process.pid}.pass`);
  await writeFile(passFile, ADMIN_PASSWORD, { mode: 0o600 });
  const args = [
    '-c',
    conf,
    '-d',
    name,
    '-u',
    ...TRYTON_MODULES,
    '--activate-dependencies',
    '--email',
    'admin@example.com',
  ];
  try {
    await run(TRYTOND_ADMIN, args, {
      env: { ...process.env, TRYTONPASSFILE: passFile },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 600_000,
    });
  } finally {
    await Promise.all([rm(conf, { force: true }), rm(passFile, { force: true })]);
  }
}

async function isReady(sql: Sql, name: string): Promise<boolean> {
  const rows =
    await sql`select shobj_description(oid, 'pg_database') as comment from pg_database where datname = ${name}`;
  return rows[0]?.comment === READY;
}

/** The ready template (built now when missing): modules activated, books set up. */
async function ensureTemplate(sql: Sql, databaseUrl: string, serverUrl: string): Promise<string> {
  const name = templateName();
  if (await isReady(sql, name)) return name;
  await dropConnections(sql, name);
  await sql.unsafe(`drop database if exists ${name}`);
  await sql.unsafe(`create database ${name} encoding 'UTF8' template template0`);
  // Test data only: commits need not wait for the disk (module activation runs 3x faster).
  await sql.unsafe(`alter database ${name} set synchronous_commit = off`);
  await activateModules(databaseUrl, name);
  await setUpTrytonBooks({ url: serverUrl, database: name, user: ADMIN_USER, password: ADMIN_PASSWORD });
  await sql.unsafe(`comment on database ${name} is '${READY}'`);
  return name;
}

/** A fresh database with the template's books, for one test file. */
export async function cloneTestDatabase(databaseUrl: string, serverUrl: string, name: string): Promise<void> {
  const sql = adminPool(databaseUrl);
  try {
    await withFileLock(
      join(STATE_DIR, 'template.lock'),
      async () => {
        const template = await ensureTemplate(sql, databaseUrl, serverUrl);
        // trytond keeps pooled connections to the template; a clone needs it unused.
        await dropConnections(sql, template);
        await sql.unsafe(`create database ${name} template ${template}`);
      },
      { waitMs: 900_000 },
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function dropTestDatabase(databaseUrl: string, name: string): Promise<void> {
  const sql = adminPool(databaseUrl);
  try {
    await sql.unsafe(`drop database if exists ${name} with (force)`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
