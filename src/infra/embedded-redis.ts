import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { EXIT, ExpectedFailure } from '../exit-codes.ts';
import type { Logger } from '../log.ts';
import { SHELL_TRY_LOCK, withFileLock } from './file-lock.ts';
import { freePort } from './free-port.ts';
import type { ManagedService } from './managed-service.ts';
import { processAlive } from './process-alive.ts';

export class RedisMissingError extends ExpectedFailure {
  override readonly exitCode = EXIT.unavailable;
  constructor() {
    super(
      [
        'redis-server was not found on PATH, and REDIS_URL is not set.',
        'Install it:   apt-get install -y redis-server   (Debian/Ubuntu; macOS: brew install redis)',
        'or point ledgersync at a running Redis:   REDIS_URL=redis://127.0.0.1:6379',
        'or start one with Docker:   docker compose up -d redis',
      ].join('\n'),
    );
    this.name = 'RedisMissingError';
  }
}

function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * A watchdog shell runs redis-server and ends it when this process is gone, even after a
 * kill -9 of ours: no orphan redis-server is left behind.
 */
const WATCHDOG = `
redis-server "$@" & child=$!
trap 'kill $child 2>/dev/null; wait $child; exit 0' TERM INT
while kill -0 "$PARENT_PID" 2>/dev/null && kill -0 $child 2>/dev/null; do sleep 0.5; done
kill $child 2>/dev/null; wait $child
`;

function ping(port: number): Promise<boolean> {
  return new Promise((resolvePing) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolvePing(false);
    });
    socket.once('error', () => resolvePing(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolvePing(data.toString().startsWith('+PONG'));
    });
  });
}

async function waitUntilUp(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (child.pid !== undefined && !processAlive(child.pid)) throw new Error('redis-server exited');
    if (await ping(port)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not answer within 15 s');
}

/** Starts a private redis-server on a free loopback port (no persistence: a scratch broker). */
export async function startEmbeddedRedis(log: Logger): Promise<ManagedService> {
  if (!redisServerAvailable()) throw new RedisMissingError();
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn('sh', ['-c', WATCHDOG, 'redis-watchdog', ...args], {
    env: { ...process.env, PARENT_PID: String(process.pid) },
    stdio: 'ignore',
  });
  await waitUntilUp(port, child);
  log.info({ port }, 'embedded redis-server started');
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return { url: `redis://127.0.0.1:${port}`, owned: true, stop };
}

/**
 * The shared server's keeper: runs redis-server, stops it when no registered user process is
 * alive any more (users killed with SIGKILL included), and stops it on SIGTERM (the last user
 * leaving). It runs in a session of its own, so a Ctrl-C in the terminal of one user does not
 * stop the server the others use. It decides under the server's lock, as a command attaching
 * does, and removes server.json before letting go, so no command attaches to a server being
 * stopped. A keeper that server.json never names (its starter was killed before writing it)
 * stops its server after 20 s: the next command started another one.
 */
const SHARED_WATCHDOG = `${SHELL_TRY_LOCK}
redis-server "$@" & child=$!
trap 'kill $child 2>/dev/null; wait $child; exit 0' TERM
rounds=0
while kill -0 $child 2>/dev/null; do
  sleep 1 & wait $!
  rounds=$((rounds + 1))
  if try_lock; then locked=1; elif lock_holder_dead; then locked=0; else continue; fi
  alive=0
  for f in "$USERS"/*; do
    [ -e "$f" ] || continue
    if kill -0 "\${f##*/}" 2>/dev/null; then alive=1; else rm -f "$f"; fi
  done
  named=1
  [ "$rounds" -gt 20 ] && ! grep -q '"keeper":'"$$"'[,}]' "$STATE" 2>/dev/null && named=0
  if [ "$alive" = 0 ] || [ "$named" = 0 ]; then
    kill $child 2>/dev/null; wait $child
    [ "$named" = 1 ] && rm -f "$STATE"
    [ "$locked" = 1 ] && rm -f "$LOCK"
    exit 0
  fi
  [ "$locked" = 1 ] && rm -f "$LOCK"
done
exit 0
`;

/** What server.json records about the shared server: its port and its keeper's pid. */
const SharedServer = z.object({
  port: z.number().int().min(1).max(65_535),
  keeper: z.number().int().positive(),
});
type SharedServer = z.infer<typeof SharedServer>;

/**
 * The server server.json names, when it is up. A missing, empty, truncated or otherwise
 * unreadable file (a kill while it was written), or one naming a dead keeper, means none.
 */
async function runningShared(stateFile: string): Promise<SharedServer | undefined> {
  const text = await readFile(stateFile, 'utf8').catch(() => '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const state = SharedServer.safeParse(parsed);
  if (!state.success || !processAlive(state.data.keeper)) return undefined;
  return (await ping(state.data.port)) ? state.data : undefined;
}

/** server.json written whole or not at all: a temporary file renamed into place. */
async function writeState(stateFile: string, server: SharedServer): Promise<void> {
  const scratch = `${stateFile}.${process.pid}`;
  await writeFile(scratch, JSON.stringify(server));
  await rename(scratch, stateFile);
}

async function liveUsers(usersDir: string): Promise<number[]> {
  const names = await readdir(usersDir).catch(() => [] as string[]);
  return names.map(Number).filter((pid) => pid && processAlive(pid));
}

async function startShared(
  dir: string,
  usersDir: string,
  stateFile: string,
  log: Logger,
): Promise<SharedServer> {
  // Append-only, no eviction: the queues and the rate budget must survive a restart (README).
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const args = [
      ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
      ...['--appendonly', 'yes', '--save', '', '--maxmemory-policy', 'noeviction'],
      ...['--logfile', join(dir, 'redis-server.log')],
    ];
    const keeper = spawn('sh', ['-c', SHARED_WATCHDOG, 'redis-keeper', ...args], {
      env: { ...process.env, USERS: usersDir, STATE: stateFile, LOCK: `${dir}.lock` },
      detached: true,
      stdio: 'ignore',
    });
    keeper.unref();
    try {
      await waitUntilUp(port, keeper);
      log.info({ port, dataDir: dir }, 'embedded redis-server started');
      return { port, keeper: keeper.pid! };
    } catch (error) {
      // The port was taken between freePort and the start: try another one once.
      if (keeper.pid !== undefined && processAlive(keeper.pid))
        await stopShared({ port, keeper: keeper.pid });
      if (attempt >= 2) throw error;
    }
  }
}

async function stopShared(server: SharedServer): Promise<void> {
  try {
    process.kill(server.keeper, 'SIGTERM');
  } catch {
    return;
  }
  // The keeper ends redis-server (it writes its append-only file) and then exits.
  const deadline = Date.now() + 15_000;
  while (processAlive(server.keeper) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/**
 * One redis-server for every ledgersync process of this checkout (the same `dataDir`), as the
 * embedded PostgreSQL is shared: a `sync` run and the worker take from one rate budget and one set
 * of queues. Data lives in `dataDir` (append-only file), so queued jobs survive a restart. Each
 * process registers itself under a file lock; the last one to leave stops the server, and its
 * keeper stops it when every user has died without leaving.
 */
export async function startSharedEmbeddedRedis(dataDir: string, log: Logger): Promise<ManagedService> {
  if (!redisServerAvailable()) throw new RedisMissingError();
  const dir = resolve(dataDir);
  const usersDir = `${dir}.users`;
  const stateFile = join(dir, 'server.json');
  const me = join(usersDir, String(process.pid));
  await mkdir(dir, { recursive: true });
  await mkdir(usersDir, { recursive: true });
  const server = await withFileLock(`${dir}.lock`, async () => {
    await writeFile(me, '');
    const existing = await runningShared(stateFile);
    if (existing) {
      log.debug({ port: existing.port }, 'using the embedded redis-server already running');
      return existing;
    }
    const started = await startShared(dir, usersDir, stateFile, log);
    await writeState(stateFile, started);
    return started;
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await withFileLock(`${dir}.lock`, async () => {
      await unlink(me).catch(() => undefined);
      if ((await liveUsers(usersDir)).length > 0) return;
      const running = await runningShared(stateFile);
      if (running) await stopShared(running);
      await unlink(stateFile).catch(() => undefined);
    });
  };
  return { url: `redis://127.0.0.1:${server.port}`, owned: true, stop };
}
