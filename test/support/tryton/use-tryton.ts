import { afterAll, beforeAll, inject } from 'vitest';
import type { TrytonConnection } from '../../../src/erp/index.ts';
import { uniqueName } from '../unique.ts';
import { ADMIN_PASSWORD, ADMIN_USER, cloneTestDatabase, dropTestDatabase } from './databases.ts';
import { ensureTrytonInstalled } from './install.ts';
import { ensureTrytonServer } from './server.ts';

/**
 * Tryton for one test file: `await requireTryton()` at the top of the file (installs Tryton when
 * missing), then `useTryton()` gives a database of the file's own, cloned from the set-up
 * template, on the shared trytond. When Tryton cannot be installed, the file fails with the
 * reason: a skipped suite would check nothing.
 */

let installed: Promise<void> | undefined;

export function requireTryton(): Promise<void> {
  installed ??= ensureTrytonInstalled().then((outcome) => {
    if (!outcome.ok)
      throw new Error(`Tryton is needed by this test file but could not be installed: ${outcome.reason}`);
  });
  return installed;
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
