import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { closingController } from '../closing-controller.ts';
import type { Logger } from '../log.ts';
import { sleep } from './backoff.ts';
import { currentLane, type Lane } from './priority.ts';
import { ACQUIRE_PERMIT, PAUSE_PERMITS } from './rate-limiter-scripts.ts';
import { currentDemandMeter, currentWindowShare } from './window-share.ts';

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
  /**
   * Share of the permits of one window the priority lane (runWithPriority) may take ahead of
   * waiting bulk callers. Past it, waiting bulk callers go first until priority permits leave
   * the window, so a flood of priority work cannot starve the bulk sync. Default 0.5.
   */
  priorityShare?: number;
  /**
   * Share of the permits of one window that bulk callers leave free while the priority lane is
   * in use (a priority permit in the window, or a priority caller waiting), so a press during a
   * saturating bulk sync finds permits at once. With no priority permit in the window, bulk has
   * the whole window. Default 0.2 (39 of 196).
   */
  priorityReserve?: number;
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
  /** Permits granted to the priority lane (included in permitsGranted). */
  priorityPermits: number;
  /** Time the priority lane's acquisitions waited (included in totalWaitMs). */
  priorityWaitMs: number;
}

/** How long a waiter's registration outlives the wait it was made for (a late timer, a dead process). */
const WAITER_GRACE_MS = 1_000;

/** One in-process queue: its callers ask Redis one at a time, in order. */
interface LaneQueue {
  readonly lane: Lane;
  /** This process's name for the lane in Redis. */
  readonly waiterId: string;
  tail: Promise<unknown>;
  /** Callers queued, the one asking Redis included. */
  queued: number;
}

class LimiterClosedError extends Error {
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
 * Two lanes, one budget. A call made inside runWithPriority (priority.ts: a sync-button press,
 * docs/platform.md G28) queues in the priority lane, everything else in the bulk lane; each lane
 * has its own in-process queue and head, so a priority call never waits behind bulk calls of its
 * process. Across processes, a priority caller that must wait registers in Redis, and while it
 * waits bulk callers leave it as many free slots (and gaps) as there are priority callers
 * waiting: the next freed slot is its. Priority takes at most priorityShare of a window ahead of
 * waiting bulk callers; past that, bulk goes first, so bulk keeps at least the rest of the
 * window. While the priority lane is in use (a priority permit in the window or a caller
 * waiting), bulk leaves priorityReserve of the window free, so a press during a saturating bulk
 * sync finds permits at once rather than after the burst leaves the window; with no priority
 * permit in the window, bulk uses the whole window. No lane ever takes more than max - margin in
 * a window.
 *
 * Measured (test/bench/limiter-fairness.ts, 4 processes, 60 s against the stub at 200 per 10 s,
 * defaults margin 4 / pad 250 ms / gap 13 ms, load average 5 on 2 cores): at most 196 arrivals
 * in any 10 s window, no 429, 98 % of the budget used. Without the gap, a run under the same
 * load saw 5 answers 429: whole-window bursts spread the delay between permit and arrival.
 * A 100 ms pad passed that run, but the sync-button benchmark (two worker processes, the stub
 * and PostgreSQL on 2 cores) then saw one 429 in each of two runs, 200 arrivals inside 9.9 s:
 * the pad covers the spread between permit and arrival on a loaded machine, so it stays 250 ms.
 */
export class RedisRateLimiter {
  private readonly logKey: string;
  private readonly pauseKey: string;
  private readonly priorityLogKey: string;
  private readonly waiterKeys: Record<Lane, string>;
  private readonly memberPrefix = randomBytes(6).toString('hex');
  private readonly minGapMs: number;
  private readonly priorityCap: number;
  private readonly reserve: number;
  private sequence = 0;
  private readonly lanes: Record<Lane, LaneQueue>;
  /** Every acquisition waiting for a permit listens to this signal. */
  private readonly closing = closingController();
  private readonly counters: RateLimiterStats = {
    permitsGranted: 0,
    waitedAcquisitions: 0,
    totalWaitMs: 0,
    rateLimited: 0,
    pauses: 0,
    priorityPermits: 0,
    priorityWaitMs: 0,
  };

  constructor(
    private readonly redis: Redis,
    keyPrefix: string,
    private readonly options: RateLimiterOptions,
    private readonly log: Logger,
  ) {
    const permits = options.max - options.margin;
    if (permits < 1) throw new Error('rate limiter: max - margin must be at least 1');
    const share = options.priorityShare ?? 0.5;
    if (!(share > 0 && share <= 1)) throw new Error('rate limiter: priorityShare must be in (0, 1]');
    this.priorityCap = Math.max(1, Math.floor(permits * share));
    const reserve = options.priorityReserve ?? 0.2;
    if (!(reserve >= 0 && reserve < 1)) throw new Error('rate limiter: priorityReserve must be in [0, 1)');
    this.reserve = Math.floor(permits * reserve);
    const averageGapMs = (options.windowMs + options.windowPadMs) / permits;
    this.minGapMs = Math.max(0, Math.floor(options.minGapMs ?? averageGapMs / 4));
    // A hash tag keeps every key in one slot on a Redis Cluster.
    const base = `${keyPrefix}:ratelimit:{${options.egressId}}`;
    this.logKey = `${base}:log`;
    this.pauseKey = `${base}:paused-until`;
    this.priorityLogKey = `${base}:priority-log`;
    this.waiterKeys = { priority: `${base}:waiting:priority`, bulk: `${base}:waiting:bulk` };
    const lane = (name: Lane): LaneQueue => ({
      lane: name,
      waiterId: `${this.memberPrefix}:${name}`,
      tail: Promise.resolve(),
      queued: 0,
    });
    this.lanes = { priority: lane('priority'), bulk: lane('bulk') };
  }

  /**
   * Waits for a permit for one HTTP attempt, in the lane of the calling context (priority.ts).
   * The lane's next caller asks Redis as soon as this one holds its slot, even one granted a
   * little ahead (see ACQUIRE_PERMIT) that this caller still waits for.
   */
  async acquire(): Promise<void> {
    const lane = this.lanes[currentLane()];
    // A caller held to a share of the window (window-share.ts) waits for its share first.
    const share = lane.lane === 'bulk' ? currentWindowShare() : undefined;
    // A kind metered beside a share (window-share.ts): its demand is measured without its waits.
    const meter = lane.lane === 'bulk' ? currentDemandMeter() : undefined;
    meter?.asking();
    if (share) {
      const { max, margin, windowMs, windowPadMs } = this.options;
      await share.take(max - margin, windowMs + windowPadMs, this.closing.signal);
    }
    lane.queued++;
    const turn = lane.tail.then(() => this.acquireInTurn(lane)).finally(() => lane.queued--);
    lane.tail = turn.catch(() => undefined);
    const dueInMs = await turn;
    if (dueInMs > 0) await sleep(dueInMs, this.closing.signal);
    meter?.granted();
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

  /** Rejects waiting and future acquisitions, and stops holding other processes back. */
  close(): void {
    if (this.closing.signal.aborted) return;
    this.closing.abort(new LimiterClosedError());
    for (const lane of Object.values(this.lanes)) {
      if (lane.queued === 0) continue;
      // Best effort: a registration left behind lapses on its own (WAITER_GRACE_MS after its wait).
      this.redis.hdel(this.waiterKeys[lane.lane], lane.waiterId).catch(() => undefined);
    }
  }

  /** Takes a permit in turn; returns in how many ms its request is due (0: at once). */
  private async acquireInTurn(lane: LaneQueue): Promise<number> {
    const started = Date.now();
    let waited = false;
    let dueInMs = 0;
    for (;;) {
      if (this.closing.signal.aborted) throw new LimiterClosedError();
      const answer = await this.tryOnce(lane);
      if (answer.granted) {
        dueInMs = answer.ms;
        break;
      }
      waited = true;
      await sleep(answer.ms, this.closing.signal);
    }
    if (dueInMs > 0) waited = true;
    const waitMs = waited ? Date.now() - started + dueInMs : 0;
    this.counters.permitsGranted++;
    if (waited) {
      this.counters.waitedAcquisitions++;
      this.counters.totalWaitMs += waitMs;
    }
    if (lane.lane === 'priority') {
      this.counters.priorityPermits++;
      this.counters.priorityWaitMs += waitMs;
    }
    return dueInMs;
  }

  /** A permit (its request due in ms), or how long until one may be free. */
  private async tryOnce(lane: LaneQueue): Promise<{ granted: boolean; ms: number }> {
    const { max, margin, windowMs, windowPadMs } = this.options;
    const member = `${this.memberPrefix}:${++this.sequence}`;
    const reply = await ACQUIRE_PERMIT.run(
      this.redis,
      [this.logKey, this.pauseKey, this.priorityLogKey, this.waiterKeys.priority, this.waiterKeys.bulk],
      [
        max - margin,
        windowMs + windowPadMs,
        member,
        this.minGapMs,
        lane.lane,
        this.priorityCap,
        lane.waiterId,
        lane.queued,
        WAITER_GRACE_MS,
        this.reserve,
      ],
    );
    const [granted, ms] = reply as [number, number];
    return granted === 1 ? { granted: true, ms: Math.max(0, ms) } : { granted: false, ms: Math.max(1, ms) };
  }
}
