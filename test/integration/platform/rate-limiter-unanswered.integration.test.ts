import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import { type RateLimiterOptions, RedisRateLimiter } from '../../../src/platform/rate-limiter.ts';
import { useTestRedis } from '../../support/redis.ts';

/**
 * docs/platform.md F3 counts a request when it arrives. One still without an answer may not have
 * arrived yet, so its entry is held in the log (moved to now, less the pad) until it is answered
 * or given up: the log never drops a request the platform may still count, which is what lets the
 * limiter use the whole window (margin 0).
 */
const redis = useTestRedis();

const WINDOW_MS = 400;
const PAD_MS = 100;
const HOLD_AFTER_MS = 150;

/** A limiter of one permit per window on a warm connection (the script loaded, the socket open). */
async function limiter(
  egressId: string,
  options: Partial<RateLimiterOptions> = {},
): Promise<RedisRateLimiter> {
  const connection = redis.connect();
  const make = (id: string) =>
    new RedisRateLimiter(
      connection,
      redis.prefix,
      {
        max: 1,
        windowMs: WINDOW_MS,
        margin: 0,
        windowPadMs: PAD_MS,
        minGapMs: 0,
        holdUnansweredAfterMs: HOLD_AFTER_MS,
        egressId: id,
        ...options,
      },
      silentLogger,
    );
  const warm = make(`${egressId}-warm`);
  await warm.acquire();
  warm.close();
  return make(egressId);
}

let reader: ReturnType<typeof redis.connect> | undefined;

async function score(egressId: string): Promise<number | undefined> {
  reader ??= redis.connect();
  const log = await reader.zrange(`${redis.prefix}:ratelimit:{${egressId}}:log`, '0', '-1', 'WITHSCORES');
  return log[1] === undefined ? undefined : Number(log[1]);
}

describe('RedisRateLimiter: a request without an answer is held in the window (docs/platform.md F3)', () => {
  it('F3: while a request has no answer its entry stays in the log, and the next permit comes a window after it was given up', async () => {
    const l = await limiter('held');
    const permit = await l.acquire();
    const grantedAt = Date.now();
    const next = l.acquire().then(() => Date.now());
    // Three windows and pads with no answer: the entry would have left after one.
    await sleep(3 * (WINDOW_MS + PAD_MS));
    expect(await Promise.race([next, sleep(0, 'waiting')])).toBe('waiting');
    permit.unanswered();
    const gaveUpAt = Date.now();
    const nextAt = await next;
    // Counted as if it arrived when it was given up: a window after that, never sooner.
    expect(nextAt - gaveUpAt).toBeGreaterThanOrEqual(WINDOW_MS - 3);
    expect(nextAt - grantedAt).toBeGreaterThan(3 * (WINDOW_MS + PAD_MS) + WINDOW_MS - 3);
    expect(l.stats().unansweredHeld).toBeGreaterThanOrEqual(3);
    l.close();
  });

  it('without holdUnansweredAfterMs an unanswered entry leaves a window and the pad after its grant (what the option changes)', async () => {
    const l = await limiter('not-held', { holdUnansweredAfterMs: undefined });
    await l.acquire();
    const grantedAt = Date.now();
    await l.acquire();
    expect(Date.now() - grantedAt).toBeLessThan(WINDOW_MS + PAD_MS + 150);
    expect(l.stats().unansweredHeld).toBe(0);
    l.close();
  });

  it('F3: a request given up within the pad (a quick 5xx, a refused connection) keeps its entry where it was', async () => {
    const l = await limiter('quick-failure');
    const permit = await l.acquire();
    const before = await score('quick-failure');
    permit.unanswered();
    await sleep(2 * HOLD_AFTER_MS);
    expect(await score('quick-failure')).toBe(before);
    expect(l.stats().unansweredHeld).toBe(0);
    l.close();
  });

  it('F3: an answered request is no longer held: its entry keeps the answer dating', async () => {
    const l = await limiter('answered');
    const permit = await l.acquire();
    permit.answered(performance.now());
    await sleep(50);
    const dated = await score('answered');
    // Past the hold and three ticks of its timer, still inside the log key's lifetime.
    await sleep(HOLD_AFTER_MS + PAD_MS + 3 * HOLD_AFTER_MS);
    expect(await score('answered')).toBe(dated);
    expect(l.stats()).toMatchObject({ answerDated: 1, unansweredHeld: 0 });
    l.close();
  });

  it('close() stops holding: the entries of requests still out are left to lapse', async () => {
    const l = await limiter('closed');
    await l.acquire();
    l.close();
    const before = await score('closed');
    await sleep(HOLD_AFTER_MS + PAD_MS + 3 * HOLD_AFTER_MS);
    expect(await score('closed')).toBe(before);
    expect(l.stats().unansweredHeld).toBe(0);
  });
});
