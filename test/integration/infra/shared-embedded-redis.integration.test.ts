import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.ts';
import { useSyncWorld, worldEnv } from '../../support/sync-world.ts';
import { waitFor } from '../support.ts';
import { startWorkerProcess, type WorkerProcess } from '../worker-process.ts';

/**
 * Without REDIS_URL every ledgersync process of one checkout (one EMBEDDED_DATA_DIR) uses one
 * redis-server, as they share the embedded PostgreSQL: a CLI run and the worker see the same
 * queues, heartbeats and rate budget. The last process to leave stops it; a killed one is
 * covered by the server's keeper. Tried through the real binary.
 */
const world = useSyncWorld();
const started: WorkerProcess[] = [];
let dataDir = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ledgersync-shared-redis-'));
});

afterAll(async () => {
  for (const worker of started) await worker.stop('SIGKILL');
  // The keeper stops the server once its users are gone; then the folder can go.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
  });
}

const env = () => ({
  ...worldEnv(world, { url: 'unused', prefix: 'lsshared' }),
  REDIS_URL: undefined as unknown as string,
  EMBEDDED_DATA_DIR: dataDir,
  PLATFORM_CONNECTION_ID: world.connectionId,
  LOG_LEVEL: 'info',
});

function startWorker(): WorkerProcess {
  const worker = startWorkerProcess(['--no-server'], env());
  started.push(worker);
  return worker;
}

async function redisPortOf(worker: WorkerProcess): Promise<number> {
  const [line] = await worker.waitForLine(/\{[^\n]*"msg":"embedded redis-server started"[^\n]*\}/);
  return (JSON.parse(line) as { port: number }).port;
}

describe('one embedded Redis per checkout', () => {
  it('a CLI run uses the Redis the worker started (it sees its heartbeat); the last to leave stops it', async () => {
    const worker = startWorker();
    const port = await redisPortOf(worker);
    await worker.waitForLine(/ledgersync worker running/);

    const status = await runCli(['status', '--json'], { ...env(), LOG_LEVEL: 'debug' });
    expect(status.code, status.stderr.slice(-2000)).toBe(0);
    expect(status.stderr).toMatch(
      new RegExp(`"port":${port},"msg":"using the embedded redis-server already running"`),
    );
    const report = JSON.parse(status.stdout) as { health: { workers: { pid: number }[] } };
    expect(report.health.workers.map((w) => w.pid)).toEqual([worker.pid]);
    // The command has left; the worker still uses the server.
    expect(await answers(port)).toBe(true);

    expect(await worker.stop('SIGINT')).toBe(0);
    expect(
      await waitFor(async () => !(await answers(port)), { timeoutMs: 10_000, what: 'redis-server to stop' }),
    ).toBe(true);
    // Append-only: what the queues held is on disk for the next start.
    expect(existsSync(join(dataDir, 'redis', 'appendonlydir'))).toBe(true);
  }, 120_000);

  it("the server outlives its keeper's 20 s naming check while a worker uses it", async () => {
    // The keeper stops a server that server.json does not name after 20 rounds (its starter
    // died before writing it). A named one must keep running: a worker can run for months.
    const worker = startWorker();
    const port = await redisPortOf(worker);
    await worker.waitForLine(/ledgersync worker running/);
    await new Promise((resolve) => setTimeout(resolve, 24_000));
    expect(await answers(port)).toBe(true);
    expect(await worker.stop('SIGINT')).toBe(0);
  }, 120_000);

  it('a worker killed with SIGKILL leaves no redis-server behind', async () => {
    const worker = startWorker();
    const port = await redisPortOf(worker);
    await worker.waitForLine(/ledgersync worker running/);
    await worker.stop('SIGKILL');
    expect(
      await waitFor(async () => !(await answers(port)), { timeoutMs: 10_000, what: 'the keeper to stop it' }),
    ).toBe(true);
  }, 120_000);
});
