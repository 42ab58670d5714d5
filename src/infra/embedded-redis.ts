import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import type { Logger } from '../log.ts';
import { freePort } from './free-port.ts';
import type { ManagedService } from './managed-service.ts';

export class RedisMissingError extends Error {
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
