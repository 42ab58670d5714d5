import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import { runWithPriority } from '../../../src/platform/priority.ts';
import { RedisRateLimiter } from '../../../src/platform/rate-limiter.ts';
import { useTestRedis } from '../../support/redis.ts';
import { watchClocks } from './support/clock-watch.ts';

const redis = useTestRedis();

const WINDOW_MS = 300;
const STALL_MS = 150;
const LATE_AFTER_MS = 20;

/** Holds this process's event loop, as other work on a busy worker does. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: nothing else of this process runs
  }
}

/**
 * One permit per window; the first permit's reply waits in the socket while the event loop is
 * held (the ask has left: its request is due at once), so the first caller uses its permit
 * STALL_MS after it fell due.
 */
async function stalledLimiter(egressId: string, lateAfterMs: number | undefined) {
  const connection = redis.connect();
  // The ask must leave at once: a connection still opening, or a server that must first load the
  // script (NOSCRIPT, then EVAL), would send it after the stall.
  const warm = new RedisRateLimiter(
    connection,
    redis.prefix,
    { max: 1, windowMs: 1, margin: 0, windowPadMs: 0, egressId: `${egressId}-warm` },
    silentLogger,
  );
  await warm.acquire();
  warm.close();
  const evalsha = connection.evalsha.bind(connection);
  let stalled = false;
  connection.evalsha = ((...args: Parameters<typeof evalsha>) => {
    const reply = evalsha(...args);
    if (!stalled) {
      stalled = true;
      stall(STALL_MS);
    }
    return reply;
  }) as typeof connection.evalsha;
  return new RedisRateLimiter(
    connection,
    redis.prefix,
    {
      max: 1,
      windowMs: WINDOW_MS,
      margin: 0,
      windowPadMs: 0,
      minGapMs: 0,
      egressId,
      ...(lateAfterMs === undefined ? {} : { lateAfterMs }),
    },
    silentLogger,
  );
}

async function scores(key: string): Promise<number[]> {
  const log = await redis.connect().zrange(key, '0', '-1', 'WITHSCORES');
  return log.filter((_, i) => i % 2 === 1).map(Number);
}

const logKey = (egressId: string) => `${redis.prefix}:ratelimit:{${egressId}}:log`;

/**
 * The first entry of a log once it is at least `atLeast` (the moving is not awaited: the request
 * leaves at once), or what it still is after 200 ms.
 */
async function firstScoreOnceAtLeast(key: string, atLeast: number): Promise<number | undefined> {
  let first: number | undefined;
  for (let tries = 0; tries < 20; tries++) {
    [first] = await scores(key);
    if (first !== undefined && first >= atLeast) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return first;
}

describe('RedisRateLimiter: a permit used late (docs/platform.md F3)', () => {
  it('F3: a permit used more than lateAfterMs after it fell due is moved later by the excess, and the next window waits for it', async () => {
    const l = await stalledLimiter('late', LATE_AFTER_MS);
    const clocks = watchClocks();
    await l.acquire();
    const leftAt = Date.now();
    // The permit's entry now says when its request left, less the lateness the pad absorbs, not
    // when Redis granted it (STALL_MS earlier). Redis's clock and this process's are the same
    // host clock, in whole ms (and what the wall clock was stepped by: support/clock-watch.ts).
    const atLeast = () => leftAt - LATE_AFTER_MS - 3 - clocks.apartMs();
    const moved = await firstScoreOnceAtLeast(logKey('late'), atLeast());
    expect(moved).toBeGreaterThanOrEqual(atLeast());
    expect(moved).toBeLessThanOrEqual(leftAt - LATE_AFTER_MS + 10);
    // The log still lapses on its own (the script's TTL is kept).
    expect(await redis.connect().pttl(logKey('late'))).toBeGreaterThan(0);
    await l.acquire();
    // The second permit counts from the first request's departure (less what the pad absorbs):
    // without the moving it would have come STALL_MS - LATE_AFTER_MS sooner.
    expect(Date.now() - leftAt).toBeGreaterThanOrEqual(WINDOW_MS - LATE_AFTER_MS - 3 - clocks.apartMs());
    expect(l.stats()).toMatchObject({ permitsGranted: 2, latePermits: 1 });
    expect(l.stats().lateMs).toBeGreaterThanOrEqual(STALL_MS);
    l.close();
  });

  it('F3: without lateAfterMs a late permit keeps the time it was granted (what the option changes)', async () => {
    const l = await stalledLimiter('kept', undefined);
    await l.acquire();
    const leftAt = Date.now();
    expect((await scores(logKey('kept')))[0]).toBeLessThanOrEqual(leftAt - STALL_MS + 10);
    await l.acquire();
    expect(Date.now() - leftAt).toBeLessThan(WINDOW_MS - 40);
    expect(l.stats()).toMatchObject({ latePermits: 0, lateMs: 0 });
    l.close();
  });

  it('a priority permit used late is re-dated in the priority lane log too (G28 shares one budget)', async () => {
    const l = await stalledLimiter('late-priority', LATE_AFTER_MS);
    const clocks = watchClocks();
    await runWithPriority(() => l.acquire());
    const leftAt = Date.now();
    const priorityLog = `${redis.prefix}:ratelimit:{late-priority}:priority-log`;
    const atLeast = () => leftAt - LATE_AFTER_MS - 3 - clocks.apartMs();
    const priority = await firstScoreOnceAtLeast(priorityLog, atLeast());
    expect(priority).toBeGreaterThanOrEqual(atLeast());
    expect((await scores(logKey('late-priority')))[0]).toBe(priority);
    expect(l.stats()).toMatchObject({ priorityPermits: 1, latePermits: 1 });
    l.close();
  });

  it('permits used on time keep their scores: nothing is moved below lateAfterMs', async () => {
    const l = new RedisRateLimiter(
      redis.connect(),
      redis.prefix,
      {
        max: 10,
        windowMs: 10_000,
        margin: 0,
        windowPadMs: 0,
        minGapMs: 30,
        egressId: 'on-time',
        lateAfterMs: 1_000,
      },
      silentLogger,
    );
    await Promise.all(Array.from({ length: 5 }, () => l.acquire()));
    const times = await scores(logKey('on-time'));
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual(Array(4).fill(30));
    expect(l.stats()).toMatchObject({ permitsGranted: 5, latePermits: 0 });
    l.close();
  });
});
