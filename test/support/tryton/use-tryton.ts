import { afterAll, beforeAll, inject } from 'vitest';
import type { TrytonConnection } from '../../../src/erp/tryton/rpc.ts';
import { uniqueName } from '../unique.ts';
import { ADMIN_PASSWORD, ADMIN_USER, cloneTestDatabase, dropTestDatabase } from './databases.ts';
import { ensureTrytonInstalled } from './install.ts';
import { ensureTrytonServer } from './server.ts';

/**
 * Tryton for one test file: `await trytonAvailability()` at the top of the file (installs
 * Tryton when missing, or says why it cannot), then `useTryton()` gives a database of the file's
 * own, cloned from the set-up template, on the shared trytond. The file skips with the printed
 * reason only when Tryton cannot be installed at all.
 */

export type Availability = { ok: true } | { ok: false; reason: string };

let availability: Promise<Availability> | undefined;

export function trytonAvailability(): Promise<Availability> {
  availability ??= ensureTrytonInstalled().then((outcome) => {
    if (outcome.ok) return { ok: true as const };
    // CI installs Tryton (.ci/run): there a missing Tryton is a failure, never a silent skip.
    if (process.env.CI)
      throw new Error(`Tryton is required in CI but could not be installed: ${outcome.reason}`);
    console.warn(`Tryton tests skipped: ${outcome.reason}`);
    return outcome;
  });
  return availability;
}

export interface TrytonTestDatabase {
  /** Available from beforeAll on. */
  readonly connection: TrytonConnection;
  /** The test PostgreSQL (the platform side of a test uses it too). */
  readonly databaseUrl: string;
}

/** Setting up the template the first time: apt, module activation and the books. */
const SETUP_TIMEOUT_MS = 900_000;

export function useTryton(): TrytonTestDatabase {
  const databaseUrl = inject('databaseUrl');
  const database = uniqueName('tryton');
  let connection: TrytonConnection | undefined;

  beforeAll(async () => {
    const url = await ensureTrytonServer(databaseUrl);
    await cloneTestDatabase(databaseUrl, url, database);
    connection = { url, database, user: ADMIN_USER, password: ADMIN_PASSWORD };
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (connection) await dropTestDatabase(databaseUrl, database);
  }, 60_000);

  return {
    get connection() {
      if (!connection) throw new Error('useTryton().connection is available from beforeAll on');
      return connection;
    },
    databaseUrl,
  };
}
