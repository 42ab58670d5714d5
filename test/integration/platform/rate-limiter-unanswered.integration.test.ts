import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import { type RateLimiterOptions, RedisRateLimiter } from '../../../src/platform/rate-limiter.ts';
import { useTestRedis } from '../../support/redis.ts';
import { watchClocks } from './support/clock-watch.ts';
import { pollUntil } from './support/poll-until.ts';
import { warmLimiter } from './support/warm-limiter.ts';

/**
 * docs/platform.md F3 counts a request when it arrives. One still without an answer may not have
 * arrived yet, so its entry is held in the log (moved to now less the pad, before it would leave)
 * until it is answered or given up (then dated at that moment): the log does not drop a request
 * the platform may still count, which is what lets the limiter use the whole window (margin 0).
 */
const redis = useTestRedis();

const WINDOW_MS = 1_500;
const PAD_MS = 100;
/**
 * Looked at every 200 ms: a hold comes at most 700 ms after its entry's date, which leaves at
 * 1,600, so a loaded machine's late timer has 900 ms to spare.
 */
const HOLD_AFTER_MS = 400;

/** A limiter of one permit per window on a warm connection. */
function limiter(egressId: string, options: Partial<RateLimiterOptions> = {}): Promise<RedisRateLimiter> {
  const told = { windowMs: WINDOW_MS, windowPadMs: PAD_MS, holdUnansweredAfterMs: HOLD_AFTER_MS, egressId };
  return warmLimiter(redis.connect(), redis.prefix, { ...told, ...options });
}

let reader: ReturnType<typeof redis.connect> | undefined;

async function score(egressId: string): Promise<number | undefined> {
  reader ??= redis.connect();
  const log = await reader.zrange(`${redis.prefix}:ratelimit:{${egressId}}:log`, '0', '-1', 'WITHSCORES');
  return log[1] === undefined ? undefined : Number(log[1]);
}

async function scoreAbove(egressId: string, above: number): Promise<number | undefined> {
  return pollUntil(
    () => score(egressId),
    (found) => found !== undefined && found > above,
    100,
  );
}

describe('RedisRateLimiter: a request without an answer is held in the window (docs/platform.md F3)', () => {
  it('F3: while a request has no answer its entry stays in the log, and the next permit comes a window and the pad after it was given up', async () => {
    const l = await limiter('held');
    const clocks = watchClocks();
    const permit = await l.acquire();
    const grantedAt = Date.now();
    const next = l.acquire().then(() => Date.now());
    // Two windows and pads with no answer: the entry would have left after one.
    await sleep(2 * (WINDOW_MS + PAD_MS));
    expect(await Promise.race([next, sleep(0, 'waiting')])).toBe('waiting');
    expect(l.stats().unansweredOut).toBe(1);
    permit.unanswered();
    const gaveUpAt = Date.now();
    const nextAt = await next;
    // Dated when it was given up, with the pad for the way it may still be on: not the pad
    // sooner (a timer may fire a few ms early by the wall clock on a loaded machine, and the
    // wall clock may be stepped after the grant the dating counts from: support/clock-watch.ts).
    expect(nextAt - gaveUpAt).toBeGreaterThanOrEqual(WINDOW_MS + PAD_MS - 20 - clocks.apartMs());
    expect(nextAt - grantedAt).toBeGreaterThan(2 * (WINDOW_MS + PAD_MS) + WINDOW_MS - 3 - clocks.apartMs());
    expect(l.stats().unansweredHeld).toBeGreaterThanOrEqual(3);
    l.close();
  });

  it('without holdUnansweredAfterMs an unanswered entry leaves a window and the pad after its grant (what the option changes)', async () => {
    const l = await limiter('not-held', { holdUnansweredAfterMs: undefined });
    await l.acquire();
    const grantedAt = Date.now();
    await l.acquire();
    // A window and the pad, give or take a late timer: far sooner than a held entry would let it.
    expect(Date.now() - grantedAt).toBeLessThan(WINDOW_MS + PAD_MS + 1_000);
    expect(l.stats()).toMatchObject({ unansweredHeld: 0, unansweredOut: 0 });
    l.close();
  });

  it('F3: a request given up (a 5xx, a refused connection, a timeout) is dated when it was given up, so the pad covers the way it may still be on', async () => {
    const l = await limiter('given-up');
    await score('given-up'); // the reader's connection open before the grant
    const permit = await l.acquire();
    const grantedAt = (await score('given-up'))!;
    await sleep(30);
    permit.unanswered();
    // In Redis's clock: at least the 30 ms out after the grant, so the pad is kept (dated the pad
    // sooner, it would be earlier than the grant and not moved at all).
    const after = await scoreAbove('given-up', grantedAt);
    expect(after! - grantedAt).toBeGreaterThanOrEqual(30);
    // Counted once the write's reply is in; on a loaded machine the timer may have held it too.
    await expect.poll(() => l.stats().unansweredHeld).toBeGreaterThanOrEqual(1);
    expect(l.stats().unansweredOut).toBe(0);
    l.close();
  });

  it('F3: an answered request is no longer held: its entry keeps the answer dating', async () => {
    const l = await limiter('answered');
    const permit = await l.acquire();
    permit.answered(performance.now());
    await sleep(50);
    const dated = await score('answered');
    // Past the hold and several looks of its timer, still inside the log key's lifetime.
    await sleep(HOLD_AFTER_MS + PAD_MS + 2 * HOLD_AFTER_MS);
    expect(await score('answered')).toBe(dated);
    const stats = l.stats();
    expect(stats.answerDated + stats.answerDatedLater).toBe(1);
    expect(stats).toMatchObject({ unansweredHeld: 0, unansweredOut: 0 });
    l.close();
  });

  it('close() gives up the requests still out: each entry is dated at the close, and held no more', async () => {
    const l = await limiter('closed');
    await score('closed');
    await l.acquire();
    const grantedAt = (await score('closed'))!;
    await sleep(30);
    l.close();
    const dated = await scoreAbove('closed', grantedAt);
    expect(dated! - grantedAt).toBeGreaterThanOrEqual(30);
    await sleep(HOLD_AFTER_MS + PAD_MS + 2 * HOLD_AFTER_MS);
    expect(await score('closed')).toBe(dated);
    await expect.poll(() => l.stats().unansweredHeld).toBeGreaterThanOrEqual(1);
    expect(l.stats().unansweredOut).toBe(0);
  });

  it('holdUnansweredAfterMs must be a positive number of ms', () => {
    const make = (holdUnansweredAfterMs: number) =>
      new RedisRateLimiter(
        redis.connect(),
        redis.prefix,
        {
          max: 1,
          windowMs: WINDOW_MS,
          margin: 0,
          windowPadMs: PAD_MS,
          holdUnansweredAfterMs,
          egressId: 'bad',
        },
        silentLogger,
      );
    expect(() => make(Number.NaN)).toThrow(/holdUnansweredAfterMs/);
    expect(() => make(0)).toThrow(/holdUnansweredAfterMs/);
  });
});
