import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import { runWithPriority } from '../../../src/platform/priority.ts';
import { type RateLimiterOptions, RedisRateLimiter } from '../../../src/platform/rate-limiter.ts';
import { useTestRedis } from '../../support/redis.ts';

/**
 * The limiter's two lanes (rate-limiter.ts): priority calls go ahead of waiting bulk calls, in
 * one process and across processes (each RedisRateLimiter with its own connection stands for a
 * process), without adding permits to the window (docs/platform.md F3) and without starving bulk.
 * Every assertion counts grants; none reads the clock.
 */
const redis = useTestRedis();

type Options = Partial<RateLimiterOptions> & Pick<RateLimiterOptions, 'egressId' | 'max' | 'windowMs'>;

function limiter(options: Options): RedisRateLimiter {
  return new RedisRateLimiter(
    redis.connect(),
    redis.prefix,
    { margin: 0, windowPadMs: 0, minGapMs: 0, ...options },
    silentLogger,
  );
}

/** Largest number of stamps inside any window of `windowMs` (a window ends at each stamp). */
function maxInWindow(stamps: number[], windowMs: number): number {
  const sorted = [...stamps].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi]! - sorted[lo]! >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

type Lane = 'priority' | 'bulk';

/** Acquires in the given lane and notes the grant in `order`. */
function acquireIn(l: RedisRateLimiter, lane: Lane, order: Lane[]): Promise<void> {
  const take = () => l.acquire().then(() => void order.push(lane));
  return lane === 'priority' ? runWithPriority(take) : take();
}

const bulkGrants = (order: Lane[]) => order.filter((lane) => lane === 'bulk').length;

describe('RedisRateLimiter priority lane (docs/platform.md F3)', () => {
  it('F3: in one process, priority calls take the next freed slots ahead of queued bulk calls', async () => {
    // A gap makes the full window free one slot at a time, so "next" is well defined.
    const l = limiter({ egressId: 'lane-one-process', max: 4, windowMs: 600, minGapMs: 30 });
    const order: Lane[] = [];
    await Promise.all(Array.from({ length: 4 }, () => acquireIn(l, 'bulk', order)));
    const queued = [
      ...Array.from({ length: 4 }, () => acquireIn(l, 'bulk', order)),
      ...Array.from({ length: 2 }, () => acquireIn(l, 'priority', order)),
    ];
    await Promise.all(queued);
    expect(order.slice(4)).toEqual(['priority', 'priority', 'bulk', 'bulk', 'bulk', 'bulk']);
    expect(l.stats()).toMatchObject({ permitsGranted: 10, priorityPermits: 2 });
    l.close();
  });

  it('F3: across processes, a waiting priority caller gets the next freed slots before waiting bulk callers', async () => {
    const options = { egressId: 'lane-processes', max: 4, windowMs: 600, minGapMs: 30 };
    const bulkA = limiter(options);
    const bulkB = limiter(options);
    const button = limiter(options);
    const order: Lane[] = [];
    await Promise.all(Array.from({ length: 4 }, () => acquireIn(bulkA, 'bulk', order)));
    const queued = [
      ...Array.from({ length: 3 }, () => acquireIn(bulkA, 'bulk', order)),
      ...Array.from({ length: 3 }, () => acquireIn(bulkB, 'bulk', order)),
      ...Array.from({ length: 2 }, () => acquireIn(button, 'priority', order)),
    ];
    await Promise.all(queued);
    expect(order.slice(4, 6)).toEqual(['priority', 'priority']);
    expect(bulkGrants(order)).toBe(10);
    for (const l of [bulkA, bulkB, button]) l.close();
  });

  it('F3: with no priority permit in the window, bulk uses the whole window', async () => {
    const bulk = limiter({ egressId: 'lane-bulk-alone', max: 6, windowMs: 10_000, priorityReserve: 0.5 });
    const order: Lane[] = [];
    await Promise.all(Array.from({ length: 6 }, () => acquireIn(bulk, 'bulk', order)));
    expect(order).toHaveLength(6);
    expect(bulk.stats().waitedAcquisitions).toBe(0);
    bulk.close();
  });

  it('F3: while the priority lane is in use, bulk leaves priorityReserve of the window free for it', async () => {
    const options = { egressId: 'lane-reserve', max: 10, windowMs: 10_000, priorityReserve: 0.3 };
    const bulk = limiter(options);
    const button = limiter(options);
    const order: Lane[] = [];
    // A press took a permit: the lane is in use for as long as that permit is in the window.
    await acquireIn(button, 'priority', order);
    const bulkCalls = Array.from({ length: 8 }, () => acquireIn(bulk, 'bulk', order));
    const eighth = Promise.allSettled(bulkCalls);
    // Bulk stops at 10 - 3 = 7 of its own; poll Redis (not the clock) until they are in the log.
    const connection = redis.connect();
    const log = `${redis.prefix}:ratelimit:{lane-reserve}:log`;
    for (let polls = 0; polls < 10_000 && (await connection.zcard(log)) < 8; polls++);
    // The next press is served at once, from the reserve, while the eighth bulk call waits.
    await acquireIn(button, 'priority', order);
    expect(bulkGrants(order)).toBe(7);
    expect(order.at(-1)).toBe('priority');
    expect(await connection.zcard(log)).toBe(9);
    expect(button.stats().waitedAcquisitions).toBe(0);
    bulk.close();
    button.close();
    const settled = await eighth;
    expect(settled.filter((r) => r.status === 'rejected')).toHaveLength(1);
  });

  it('F3: mixed lanes across three processes never grant more than max - margin in any window', async () => {
    const windowMs = 400;
    // Margin 2 of 12 and a 50 ms pad; the gap is the default (a quarter of the average gap).
    const limiters = [1, 2, 3].map(() =>
      limiter({ egressId: 'lane-mixed', max: 12, windowMs, margin: 2, windowPadMs: 50, minGapMs: undefined }),
    );
    const stamps: number[] = [];
    const order: Lane[] = [];
    const take = (l: RedisRateLimiter, lane: Lane, count: number) =>
      Array.from({ length: count }, async () => {
        await acquireIn(l, lane, order);
        stamps.push(Date.now());
      });
    await Promise.all(limiters.flatMap((l) => [...take(l, 'bulk', 10), ...take(l, 'priority', 5)]));
    expect(stamps).toHaveLength(45);
    expect(maxInWindow(stamps, windowMs)).toBeLessThanOrEqual(10);
    expect(limiters.reduce((sum, l) => sum + l.stats().priorityPermits, 0)).toBe(15);
    for (const l of limiters) l.close();
  });

  it('F3: bulk is not starved: with priority demand that never stops, bulk still gets the rest of each window', async () => {
    const options = { egressId: 'lane-starve', max: 20, windowMs: 400, priorityShare: 0.5 };
    const buttons = [limiter(options), limiter(options)];
    const bulk = limiter(options);
    const order: Lane[] = [];
    const PRIORITY_PERMITS = 80;
    let priorityDone = false;
    let priorityTaken = 0;
    // Eight priority loops keep asking until they hold 80 permits: four windows' worth.
    const priorityLoop = async (l: RedisRateLimiter) => {
      while (priorityTaken < PRIORITY_PERMITS) {
        priorityTaken++;
        await acquireIn(l, 'priority', order);
      }
    };
    const bulkLoop = async () => {
      while (!priorityDone) await acquireIn(bulk, 'bulk', order);
    };
    const bulkLoops = Promise.all(Array.from({ length: 3 }, bulkLoop));
    await Promise.all(buttons.flatMap((l) => Array.from({ length: 4 }, () => priorityLoop(l))));
    priorityDone = true;
    // The grants after the first window's worth, up to the last priority grant.
    const contested = order.slice(options.max);
    const bulkShare = bulkGrants(contested) / contested.length;
    await bulkLoops;
    // Priority goes first for half of each window; bulk keeps the other half. Without the cap
    // bulk would get next to none of them.
    expect(bulkShare).toBeGreaterThanOrEqual(0.3);
    for (const l of [...buttons, bulk]) l.close();
  });

  it('a waiting priority caller registers in Redis, and close() takes the registration back', async () => {
    const connection = redis.connect();
    const options = {
      max: 1,
      windowMs: 10_000,
      margin: 0,
      windowPadMs: 0,
      minGapMs: 0,
      egressId: 'lane-close',
    };
    const l = new RedisRateLimiter(connection, redis.prefix, options, silentLogger);
    const key = `${redis.prefix}:ratelimit:{lane-close}:waiting:priority`;
    await l.acquire();
    const waiting = runWithPriority(() => l.acquire());
    const rejected = expect(waiting).rejects.toThrow('closed');
    // The script answers "wait" only after registering; poll Redis (not the clock) until it has.
    for (let polls = 0; polls < 10_000; polls++) {
      if (Object.keys(await connection.hgetall(key)).length > 0) break;
    }
    const [registration] = Object.values(await connection.hgetall(key));
    expect(registration).toMatch(/^\d+:1$/);
    l.close();
    await rejected;
    // Same connection: the read runs after close()'s HDEL.
    expect(await connection.hgetall(key)).toEqual({});
  });
});
