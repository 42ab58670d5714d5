import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningStub } from '@ledgersync/stub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import { runWithPriority } from '../../../src/platform/priority.ts';
import type { RateLimiterOptions, RedisRateLimiter } from '../../../src/platform/rate-limiter.ts';
import { useTestRedis } from '../../support/redis.ts';
import { watchClocks } from './support/clock-watch.ts';
import { pollUntil } from './support/poll-until.ts';
import { maxInAnyWindow } from './support/pull-workers.ts';
import { addClient, effects, startTestStub, testClient } from './support/stub.ts';
import { warmLimiter } from './support/warm-limiter.ts';

/**
 * docs/platform.md F3 counts a request when it arrives, and the platform answers only after
 * counting it: a permit whose request is answered is dated by the answer (less the pad), so the
 * next window turns a window after the answer instead of a window and the whole pad after the grant.
 */
const redis = useTestRedis();

const WINDOW_MS = 300;
const PAD_MS = 400;

/** A limiter of one permit per window on a warm connection (support/warm-limiter.ts). */
function limiter(egressId: string, options: Partial<RateLimiterOptions> = {}): Promise<RedisRateLimiter> {
  const told = { windowMs: WINDOW_MS, windowPadMs: PAD_MS, egressId };
  return warmLimiter(redis.connect(), redis.prefix, { ...told, ...options });
}

const logKey = (egressId: string, log = 'log') => `${redis.prefix}:ratelimit:{${egressId}}:${log}`;

let reader: ReturnType<typeof redis.connect> | undefined;

async function scores(key: string): Promise<number[]> {
  reader ??= redis.connect();
  const log = await reader.zrange(key, '0', '-1', 'WITHSCORES');
  return log.filter((_, i) => i % 2 === 1).map(Number);
}

/** The log's first score once it is below `below` (the dating is not awaited), or what it is after 200 ms. */
async function firstScoreBelow(key: string, below: number): Promise<number | undefined> {
  const [first] = await pollUntil(
    () => scores(key),
    ([score]) => score !== undefined && score < below,
    20,
  );
  return first;
}

describe('RedisRateLimiter: a permit is dated by its answer (docs/platform.md F3)', () => {
  it('F3: a permit answered within the pad is dated by its answer: the next permit comes a window after the answer, not a window and the pad after the grant', async () => {
    const l = await limiter('answered');
    const clocks = watchClocks();
    const permit = await l.acquire();
    const grantedAt = Date.now();
    // Answered at once: the bound is the grant plus the ask's round trip to Redis.
    permit.answered(performance.now());
    const answeredAt = Date.now();
    // Redis's clock and this process's are one host clock, in whole ms (and what the wall clock
    // was stepped by meanwhile: support/clock-watch.ts). Never below the answer less the pad (the
    // safe side); a slow ask to Redis only makes it later.
    const score = await firstScoreBelow(logKey('answered'), grantedAt - 2);
    expect(score).toBeGreaterThanOrEqual(answeredAt - PAD_MS - 3 - clocks.apartMs());
    expect(score).toBeLessThanOrEqual(answeredAt - PAD_MS + 50);
    await l.acquire();
    const nextAt = Date.now();
    // Never before a window has passed since the answer (the latest the request can have arrived)...
    expect(nextAt - answeredAt).toBeGreaterThanOrEqual(WINDOW_MS - 3 - clocks.apartMs());
    // ...and well before the pad's bound, a window and the whole pad after the grant.
    expect(nextAt - grantedAt).toBeLessThan(WINDOW_MS + PAD_MS - PAD_MS / 4);
    expect(l.stats()).toMatchObject({ permitsGranted: 2, answerDated: 1 });
    expect(l.stats().answerDatedMs).toBeGreaterThanOrEqual(PAD_MS - 60);
    l.close();
  });

  it('F3: with dateByAnswer false an answered permit keeps its grant, and the next waits a window and the pad (what the option changes)', async () => {
    const l = await limiter('unanswered', { dateByAnswer: false });
    const permit = await l.acquire();
    const grantedAt = Date.now();
    await sleep(30);
    permit.answered(performance.now());
    await l.acquire();
    expect(Date.now() - grantedAt).toBeGreaterThanOrEqual(WINDOW_MS + PAD_MS - 3);
    expect(l.stats()).toMatchObject({ answerDated: 0, answerDatedMs: 0 });
    l.close();
  });

  it('F3: an answer later than the pad moves the permit later: the platform may have counted its request that late', async () => {
    const l = await limiter('slow-answer');
    const clocks = watchClocks();
    const permit = await l.acquire();
    const grantedAt = Date.now();
    await sleep(PAD_MS + 100);
    permit.answered(performance.now());
    const answeredAt = Date.now();
    let score: number | undefined;
    for (let tries = 0; tries < 20; tries++) {
      [score] = await scores(logKey('slow-answer'));
      if (score !== undefined && score > grantedAt + 2) break;
      await sleep(10);
    }
    // The answer less the pad: later than the grant, so the next window waits for the answer.
    expect(score).toBeGreaterThanOrEqual(answeredAt - PAD_MS - 3 - clocks.apartMs());
    expect(score).toBeGreaterThan(grantedAt + 50);
    await l.acquire();
    expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(WINDOW_MS - 3 - clocks.apartMs());
    expect(l.stats()).toMatchObject({ answerDated: 0, answerDatedLater: 1 });
    l.close();
  });

  it('the gap between permits counts from the last grant, not from an entry an answer moved later', async () => {
    const l = await limiter('gap-after-later', { max: 10, minGapMs: 20 });
    const first = await l.acquire();
    await sleep(30);
    // Answered as if a second later: its entry becomes the newest score in the log.
    first.answered(performance.now() + 1_000);
    await sleep(20);
    const asked = Date.now();
    await l.acquire();
    // One gap at most after the last grant (already past), not a gap after the moved entry.
    expect(Date.now() - asked).toBeLessThan(200);
    l.close();
  });

  it('a priority permit is dated by its answer in the priority lane log too (G28 shares one budget)', async () => {
    const l = await limiter('answered-priority');
    const permit = await runWithPriority(() => l.acquire());
    const grantedAt = Date.now();
    permit.answered(performance.now());
    const score = await firstScoreBelow(logKey('answered-priority'), grantedAt - 2);
    expect(score).toBeLessThan(grantedAt - PAD_MS / 2);
    expect(await scores(logKey('answered-priority', 'priority-log'))).toEqual([score]);
    l.close();
  });

  it('an entry the window already dropped is not written back by a late-told answer', async () => {
    const l = await limiter('dropped', { max: 2 });
    const permit = await l.acquire();
    const answeredAt = performance.now();
    await sleep(WINDOW_MS + PAD_MS + 30);
    // The next ask drops the first entry from the window.
    await l.acquire();
    permit.answered(answeredAt);
    await sleep(30);
    expect(await scores(logKey('dropped'))).toHaveLength(1);
    // Counted only when the log changed.
    expect(l.stats()).toMatchObject({ answerDated: 0 });
    l.close();
  });
});

describe('a client dating permits by their answers, against the stub (docs/platform.md F3)', () => {
  const MAX = 20;
  const RULE_WINDOW_MS = 1_000;
  const PAD = 600;
  let stub: RunningStub;

  beforeAll(async () => {
    stub = await startTestStub({ rateLimit: { max: MAX, windowMs: RULE_WINDOW_MS } });
  });

  afterAll(async () => {
    await stub?.close();
  });

  /** MAX + 5 requests, four at a time, as fast as the permits allow; the stub's arrivals of them. */
  async function burst(egressId: string, dateByAnswer: boolean) {
    const credentials = await addClient(stub);
    const client = testClient(stub, redis, credentials, silentLogger, {
      limiter: { egressId, max: MAX, windowMs: RULE_WINDOW_MS, margin: 0, windowPadMs: PAD, dateByAnswer },
    });
    await client.request({ method: 'GET', path: '/entities?page_size=2' });
    // Past the token's and the first request's window, so the burst has the window to itself.
    await sleep(RULE_WINDOW_MS + PAD + 50);
    const startedAt = Date.now();
    let left = MAX + 5;
    const loop = async () => {
      while (left-- > 0) await client.request({ method: 'GET', path: '/entities?page_size=2' });
    };
    await Promise.all(Array.from({ length: 4 }, loop));
    const stats = client.stats();
    await client.close();
    const arrivals = (await effects(stub)).arrivals.filter((a) => a.at >= startedAt);
    return { arrivals, stats };
  }

  it('F3: answers turn the window about the round trip after the first window, not the pad, and the stub still sees at most max in any window, no 429', async () => {
    const dated = await burst('burst-dated', true);
    const padded = await burst('burst-padded', false);
    for (const { arrivals } of [dated, padded]) {
      expect(arrivals).toHaveLength(MAX + 5);
      expect(arrivals.filter((a) => a.status === 429)).toEqual([]);
      expect(
        maxInAnyWindow(
          arrivals.map((a) => a.at),
          RULE_WINDOW_MS,
        ),
      ).toBeLessThanOrEqual(MAX);
    }
    // The first request past the window: a window after the first arrival at the earliest, with
    // the pad after its grant when not dated, with only the round trip (ms on loopback) when dated.
    const turn = ({ arrivals }: { arrivals: { at: number }[] }) => arrivals[MAX]!.at - arrivals[0]!.at;
    // Margins of a third of the pad: the first request's way to the stub, and a loaded machine.
    expect(turn(padded)).toBeGreaterThanOrEqual(RULE_WINDOW_MS + PAD - PAD / 3);
    expect(turn(dated)).toBeGreaterThanOrEqual(RULE_WINDOW_MS);
    expect(turn(dated)).toBeLessThan(RULE_WINDOW_MS + PAD / 3);
  });
});
