import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { EXIT, ExpectedFailure } from '../exit-codes.ts';
import type { Logger } from '../log.ts';
import { withFileLock } from './file-lock.ts';
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

export function redisServerAvailable(): boolean {
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
 * stop the server the others use.
 */
const SHARED_WATCHDOG = `
redis-server "$@" & child=$!
trap 'kill $child 2>/dev/null; wait $child; exit 0' TERM
while kill -0 $child 2>/dev/null; do
  alive=0
  for f in "$USERS"/*; do
    [ -e "$f" ] || continue
    if kill -0 "\${f##*/}" 2>/dev/null; then alive=1; else rm -f "$f"; fi
  done
  [ "$alive" = 1 ] || break
  sleep 1 & wait $!
done
kill $child 2>/dev/null; wait $child
exit 0
`;

/** What server.json records about the shared server: its port and its keeper's pid. */
interface SharedServer {
  port: number;
  keeper: number;
}

async function runningShared(stateFile: string): Promise<SharedServer | undefined> {
  try {
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as Partial<SharedServer>;
    const { port, keeper } = state;
    if (typeof port !== 'number' || typeof keeper !== 'number' || !processAlive(keeper)) return undefined;
    return (await ping(port)) ? { port, keeper } : undefined;
  } catch {
    return undefined;
  }
}

async function liveUsers(usersDir: string): Promise<number[]> {
  const names = await readdir(usersDir).catch(() => [] as string[]);
  return names.map(Number).filter((pid) => pid && processAlive(pid));
}

async function startShared(dir: string, usersDir: string, log: Logger): Promise<SharedServer> {
  // Append-only, no eviction: the queues and the rate budget must survive a restart (README).
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const args = [
      ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
      ...['--appendonly', 'yes', '--save', '', '--maxmemory-policy', 'noeviction'],
      ...['--logfile', join(dir, 'redis-server.log')],
    ];
    const keeper = spawn('sh', ['-c', SHARED_WATCHDOG, 'redis-keeper', ...args], {
      env: { ...process.env, USERS: usersDir },
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
    const started = await startShared(dir, usersDir, log);
    await writeFile(stateFile, JSON.stringify(started));
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
