import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../src/infra/index.ts';
import { useOwnRedis } from '../../chaos/redis-server.ts';
import { useSyncWorld, worldEnv } from '../../support/sync-world.ts';
import { startWorkerProcess, type WorkerProcess } from '../worker-process.ts';

/**
 * Ctrl-C on `npx ledgersync worker` (SIGINT; SIGTERM takes the same path) when nothing is
 * running: it stops within seconds and says so in a line or two, Redis up or not. It used to
 * wait 25 s for BullMQ's fetch loop, which waits for Redis, and then print a "jobs still running
 * were released" warning per queue; and a worker still waiting for Redis at start did not stop
 * until its start gave up.
 */
const world = useSyncWorld();
const redis = useOwnRedis();
const started: WorkerProcess[] = [];
const STACK = /\n\s+at .+:\d+:\d+|\[ioredis\]/;

beforeAll(async () => {
  await redis.start();
});

afterAll(async () => {
  for (const worker of started) await worker.stop('SIGKILL');
});

type Line = { level: number; msg: string } & Record<string, unknown>;

function jsonLines(text: string): Line[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);
}

async function worker(redisUrl: string): Promise<WorkerProcess> {
  const port = await freePort();
  const child = startWorkerProcess([], {
    ...worldEnv(world, { url: redisUrl, prefix: `lsstop${port}` }),
    PLATFORM_CONNECTION_ID: world.connectionId,
    LOG_LEVEL: 'info',
    SERVER_HOST: '127.0.0.1',
    SERVER_PORT: String(port),
    // No WEBHOOK_PUBLIC_URL, no WEBHOOK_SECRET: no webhooks can arrive, which the worker says.
    WEBHOOK_PUBLIC_URL: undefined as unknown as string,
    WEBHOOK_SECRET: undefined as unknown as string,
    // Schedules that fired long ago: nothing is overdue, so the worker runs nothing at start.
    SCHEDULE_OBJECT_SYNC_WEEKDAYS: '0 0 1 1 *',
    SCHEDULE_OBJECT_SYNC_WEEKENDS: '0 0 1 1 *',
    SCHEDULE_COA_MIRROR: '0 0 1 1 *',
  });
  started.push(child);
  return child;
}

async function interrupt(child: WorkerProcess): Promise<{ code: number | null; ms: number; after: string }> {
  const mark = child.output().length;
  const begun = Date.now();
  const code = await child.stop('SIGINT');
  return { code, ms: Date.now() - begun, after: child.output().slice(mark) };
}

describe('Ctrl-C on the worker', () => {
  it('warns at start that without WEBHOOK_PUBLIC_URL the sync button and webhook triggers cannot work', async () => {
    const child = await worker(redis.url);
    await child.waitForLine(/ledgersync worker running/);
    const warning = jsonLines(child.output()).find((l) => l.setting === 'WEBHOOK_PUBLIC_URL');
    expect(warning).toMatchObject({ level: 40, feature: 'webhooks' });
    expect(warning!.msg).toMatch(
      /^WEBHOOK_PUBLIC_URL is not set: .* the sync button and webhook-triggered syncs cannot work/,
    );
    const { code, ms, after } = await interrupt(child);
    expect(code, child.output().slice(-2000)).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(jsonLines(after).map((l) => l.msg)).toEqual(['stopping the worker']);
    console.info(`Redis up, nothing running: stopped ${ms} ms after SIGINT`);
  }, 60_000);

  it('with Redis gone: exit 0 within seconds, one line about Redis, no storm, no stack', async () => {
    const child = await worker(redis.url);
    await child.waitForLine(/ledgersync worker running/);
    await redis.kill();
    await child.waitForLine(/Redis is unreachable; retrying until it is back/);
    const { code, ms, after } = await interrupt(child);
    expect(code, child.output().slice(-2000)).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(jsonLines(after).filter((l) => l.level >= 40)).toEqual([]);
    expect(after.split('\n').filter(Boolean).length).toBeLessThanOrEqual(3);
    const all = jsonLines(child.output());
    expect(all.filter((l) => l.msg === 'Redis is unreachable; retrying until it is back')).toHaveLength(1);
    expect(all.filter((l) => l.level >= 50)).toEqual([]);
    expect(child.output()).not.toMatch(STACK);
    console.info(`Redis down: stopped ${ms} ms after SIGINT`);
    await redis.start();
  }, 60_000);

  it('still waiting for Redis at start: it stops at once too', async () => {
    const child = await worker('redis://127.0.0.1:1');
    await child.waitForLine(/Redis is unreachable; retrying until it is back/);
    const { code, ms } = await interrupt(child);
    expect(code, child.output().slice(-2000)).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(child.output()).not.toMatch(STACK);
    expect(jsonLines(child.output()).filter((l) => l.level >= 50)).toEqual([]);
    console.info(`Redis never there: stopped ${ms} ms after SIGINT`);
  }, 60_000);
});
