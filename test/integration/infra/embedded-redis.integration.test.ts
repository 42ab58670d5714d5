import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startEmbeddedRedis } from '../../../src/infra/embedded-redis.ts';
import { silentLogger } from '../../../src/log.ts';

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', () => resolve(false));
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
  });
}

async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('embedded redis-server', () => {
  it('starts on a free loopback port and stops cleanly', async () => {
    const redis = await startEmbeddedRedis(silentLogger);
    const port = Number(new URL(redis.url).port);
    expect(await answers(port)).toBe(true);
    await redis.stop();
    expect(await eventually(async () => !(await answers(port)))).toBe(true);
  });

  it('leaves no orphan when its owner is killed with SIGKILL', async () => {
    const script = fileURLToPath(new URL('../../support/start-redis-and-wait.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx/esm', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<number>((resolve) =>
      child.stdout.once('data', (d) => resolve(Number(String(d).trim()))),
    );
    expect(await answers(port)).toBe(true);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect(await eventually(async () => !(await answers(port)))).toBe(true);
  });
});
