import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { withFileLock } from '../../../src/infra/index.ts';

/**
 * Makes sure Debian's Tryton 6.0 server and the modules the adapter needs are on this machine,
 * installing them with apt when they are missing (CI machines start without them). Returns why
 * Tryton cannot be had when it cannot, so the caller skips loudly instead of silently.
 */

const run = promisify(execFile);

/** Debian packages: the server, its PostgreSQL driver, and the modules activated in tests. */
const TRYTON_APT_PACKAGES = [
  'tryton-server',
  'python3-psycopg2',
  'tryton-modules-account',
  'tryton-modules-account-invoice',
  'tryton-modules-analytic-account',
  'tryton-modules-analytic-invoice',
  'tryton-modules-company',
  'tryton-modules-currency',
  'tryton-modules-party',
];

/** The Tryton modules activated in the test database (their dependencies come along). */
export const TRYTON_MODULES = ['account_invoice', 'analytic_invoice'];

export const TRYTOND = '/usr/bin/trytond';
export const TRYTOND_ADMIN = '/usr/bin/trytond-admin';
/** Debian's interpreter, which has the packaged trytond and psycopg2 (not a pyenv shim). */
export const SYSTEM_PYTHON = '/usr/bin/python3';

const MODULES_DIR = '/usr/lib/python3/dist-packages/trytond/modules';

async function installed(): Promise<boolean> {
  if (!existsSync(TRYTOND) || !existsSync(TRYTOND_ADMIN) || !existsSync(SYSTEM_PYTHON)) return false;
  for (const module of ['account_invoice', 'analytic_invoice', 'analytic_account']) {
    if (!existsSync(`${MODULES_DIR}/${module}`)) return false;
  }
  try {
    await run(SYSTEM_PYTHON, ['-c', 'import psycopg2, trytond']);
    return true;
  } catch {
    return false;
  }
}

async function aptInstall(): Promise<void> {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const options = { env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 };
  await run('apt-get', ['update'], options);
  await run('apt-get', ['install', '-y', '--no-install-recommends', ...TRYTON_APT_PACKAGES], options);
}

export type InstallOutcome = { ok: true; installedNow: boolean } | { ok: false; reason: string };

/** Test files start in parallel: one installs while the others wait for it (dpkg has one lock). */
export async function ensureTrytonInstalled(): Promise<InstallOutcome> {
  if (await installed()) return { ok: true, installedNow: false };
  const dir = resolve('.ledgersync', 'tryton');
  await mkdir(dir, { recursive: true });
  return withFileLock(join(dir, 'install.lock'), installOnce, { waitMs: 900_000 });
}

async function installOnce(): Promise<InstallOutcome> {
  if (await installed()) return { ok: true, installedNow: false };
  if (process.getuid?.() !== 0) {
    return {
      ok: false,
      reason: `trytond is not installed and apt-get needs root (${TRYTON_APT_PACKAGES.join(' ')})`,
    };
  }
  try {
    await aptInstall();
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n').slice(-3).join(' ') : String(error);
    return { ok: false, reason: `apt-get could not install Tryton: ${message}` };
  }
  if (!(await installed()))
    return { ok: false, reason: 'apt-get ran but trytond or its modules are still missing' };
  return { ok: true, installedNow: true };
}
