import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { freePort } from '../../src/infra/index.ts';

/**
 * A redis-server of the test's own, on a fixed loopback port, that the test stops (SIGKILL, as a
 * crash) and starts again on the same port. Append-only with fsync on every write, as README asks
 * of a production Redis, so a restart keeps the queues.
 */
export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  start(): Promise<void>;
  /** Kills redis-server (SIGKILL) and waits until it is gone and the port refuses connections. */
  kill(): Promise<void>;
  readonly running: boolean;
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    // A server with requirepass answers -NOAUTH: it is up all the same.
    socket.once('data', (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString())));
  });
}

export function useOwnRedis(options: { extraArgs?: string[] } = {}): OwnRedis {
  let child: ChildProcess | null = null;
  let port = 0;
  let dir = '';
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    get port() {
      return port;
    },
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    get running() {
      return child !== null && child.exitCode === null;
    },
    async start() {
      if (!port) port = await freePort();
      if (!dir) dir = await mkdtemp(join(tmpdir(), 'ledgersync-redis-'));
      const args = [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--maxmemory-policy',
        'noeviction',
        ...(options.extraArgs ?? []),
      ];
      child = spawn('redis-server', args, { stdio: 'ignore' });
      const deadline = Date.now() + 15_000;
      while (!(await answersPing(port))) {
        if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
        if (Date.now() > deadline) throw new Error('redis-server did not answer within 15 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async kill() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
