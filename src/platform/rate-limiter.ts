import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../log.ts';
import { sleep } from './backoff.ts';
import { ACQUIRE_PERMIT, PAUSE_PERMITS } from './rate-limiter-scripts.ts';

export interface RateLimiterOptions {
  /** Requests the platform allows per window per source IP (F3: 200). */
  max: number;
  /** The platform's rolling window (F3: 10 000 ms). */
  windowMs: number;
  /**
   * Permits held back per window, so that a request delayed on its way (a stalled event loop,
   * a slow socket) still cannot make the platform see max + 1 arrivals in one window.
   */
  margin: number;
  /** Added to the window: the spread in network delay between two requests. */
  windowPadMs: number;
  /**
   * Smallest gap between two permits of one egress, in ms. Without it a sliding log grants a
   * whole window's permits at once and then repeats that burst every window; a burst queues up
   * at both ends and spreads the delay between permit and arrival, which is what the pad must
   * cover. Default: a quarter of the average gap, so bursts run at most 4x the average rate.
   */
  minGapMs?: number;
  /** Name of the egress IP; every process sharing it shares one budget. */
  egressId: string;
}

export const DEFAULT_LIMITER: RateLimiterOptions = {
  max: 200,
  windowMs: 10_000,
  margin: 4,
  windowPadMs: 250,
  egressId: 'default',
};

/** Counters of this process, for metrics. */
export interface RateLimiterStats {
  permitsGranted: number;
  /** Acquisitions that had to wait at least once. */
  waitedAcquisitions: number;
  totalWaitMs: number;
  /** 429 answers seen by this process. */
  rateLimited: number;
  /** Pauses this process stored in Redis after a 429. */
  pauses: number;
}

export class LimiterClosedError extends Error {
  constructor() {
    super('platform rate limiter is closed');
    this.name = 'LimiterClosedError';
  }
}

/**
 * The shared budget of F3, kept in Redis (see rate-limiter-scripts.ts). One permit per HTTP
 * attempt, retries and token requests included. Inside one process, callers queue in order and
 * only the head of the queue asks Redis, sleeping exactly as long as the script says.
 *
 * Measured (test/bench/limiter-fairness.ts, 4 processes, 60 s against the stub at 200 per 10 s,
 * defaults margin 4 / pad 250 ms / gap 13 ms, load average 5 on 2 cores): at most 196 arrivals
 * in any 10 s window, no 429, 98 % of the budget used. Without the gap, a run under the same
 * load saw 5 answers 429: whole-window bursts spread the delay between permit and arrival.
 */
export class RedisRateLimiter {
  private readonly logKey: string;
  private readonly pauseKey: string;
  private readonly memberPrefix = randomBytes(6).toString('hex');
  private readonly minGapMs: number;
  private sequence = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly closing = new AbortController();
  private readonly counters: RateLimiterStats = {
    permitsGranted: 0,
    waitedAcquisitions: 0,
    totalWaitMs: 0,
    rateLimited: 0,
    pauses: 0,
  };

  constructor(
    private readonly redis: Redis,
    keyPrefix: string,
    private readonly options: RateLimiterOptions,
    private readonly log: Logger,
  ) {
    if (options.max - options.margin < 1) throw new Error('rate limiter: max - margin must be at least 1');
    const averageGapMs = (options.windowMs + options.windowPadMs) / (options.max - options.margin);
    this.minGapMs = Math.max(0, Math.floor(options.minGapMs ?? averageGapMs / 4));
    // A hash tag keeps both keys in one slot on a Redis Cluster.
    const base = `${keyPrefix}:ratelimit:{${options.egressId}}`;
    this.logKey = `${base}:log`;
    this.pauseKey = `${base}:paused-until`;
  }

  /** Waits for a permit for one HTTP attempt. */
  acquire(): Promise<void> {
    const turn = this.queue.then(() => this.acquireInTurn());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** A 429 arrived: pause every process for retryAfterMs (F3), and count it. */
  async pauseAfter429(retryAfterMs: number): Promise<void> {
    this.counters.rateLimited++;
    if (retryAfterMs <= 0) return;
    this.counters.pauses++;
    await PAUSE_PERMITS.run(this.redis, [this.pauseKey], [Math.ceil(retryAfterMs)]);
    this.log.warn(
      { egressId: this.options.egressId, retryAfterMs },
      'platform answered 429; pausing all callers',
    );
  }

  stats(): RateLimiterStats {
    return { ...this.counters };
  }

  /** Rejects waiting and future acquisitions. */
  close(): void {
    this.closing.abort(new LimiterClosedError());
  }

  private async acquireInTurn(): Promise<void> {
    const started = Date.now();
    let waited = false;
    for (;;) {
      if (this.closing.signal.aborted) throw new LimiterClosedError();
      const waitMs = await this.tryOnce();
      if (waitMs === 0) break;
      waited = true;
      await sleep(waitMs, this.closing.signal);
    }
    this.counters.permitsGranted++;
    if (waited) {
      this.counters.waitedAcquisitions++;
      this.counters.totalWaitMs += Date.now() - started;
    }
  }

  /** 0 when a permit was taken, else how long until one may be free. */
  private async tryOnce(): Promise<number> {
    const { max, margin, windowMs, windowPadMs } = this.options;
    const member = `${this.memberPrefix}:${++this.sequence}`;
    const reply = await ACQUIRE_PERMIT.run(
      this.redis,
      [this.logKey, this.pauseKey],
      [max - margin, windowMs + windowPadMs, member, this.minGapMs],
    );
    const [granted, waitMs] = reply as [number, number];
    return granted === 1 ? 0 : Math.max(1, waitMs);
  }
}
