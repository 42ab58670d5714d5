import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { closingController } from '../closing-controller.ts';
import type { Logger } from '../log.ts';
import { sleep } from './backoff.ts';
import { currentLane, type Lane } from './priority.ts';
import { ACQUIRE_PERMIT, LOG_OUTLIVES_WINDOW_MS, PAUSE_PERMITS } from './rate-limiter-scripts.ts';
import { currentDemandMeter, currentWindowShare } from './window-share.ts';

export interface RateLimiterOptions {
  /** Requests the platform allows per window per source IP (F3: 200). */
  max: number;
  /** The platform's rolling window (F3: 10 000 ms). */
  windowMs: number;
  /**
   * Permits held back per window. Once every request's entry is dated by its answer
   * (dateByAnswer) and held while no answer came (holdUnansweredAfterMs), the log already counts
   * a delayed request for as long as the platform can, so the default holds none back; a margin
   * is for a platform that counts some other way than F3 says.
   */
  margin: number;
  /**
   * Added to the window: the spread in network delay between two requests. Once a request is
   * answered, the answer bounds its arrival instead (dateByAnswer).
   */
  windowPadMs: number;
  /**
   * Lateness the pad absorbs: a permit used more than this many ms after it fell due (a stalled
   * event loop held the caller) is moved later in the shared log by the excess, so the permits of
   * the window after it wait for the request's real departure less this much. Unset: never moved.
   */
  lateAfterMs?: number;
  /**
   * Date a permit by its request's answer (default true): the platform counts a request before it
   * answers it, so once the answer is in, the entry is moved to when the answer came, less the
   * pad the check adds back: earlier for a quick answer, later for one the platform was slow to
   * count. The pad then covers only requests still on their way (see `dateByAnswer`). Off, an
   * answered entry keeps its grant (or its last hold), which may be earlier than the arrival:
   * set a margin again.
   */
  dateByAnswer?: boolean;
  /**
   * A request still without an answer may not have arrived yet. Once this many ms have passed
   * beyond the pad since its entry's date (its grant or its last hold), the entry is moved to now
   * less the pad, so it leaves a window after now; when the request is given up, to that moment,
   * so it leaves a window and the pad after it. Without it, an entry leaves the log a window and
   * the pad after its permit even while its request, slow to arrive, is still counted by the
   * platform. At most half the window is used, looked at every half of it (1 s at most). Unset:
   * never held, and a give-up dates nothing (set a margin again).
   */
  holdUnansweredAfterMs?: number;
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
   * the whole window. Default 0.2 (40 of 200).
   */
  priorityReserve?: number;
  /** Name of the egress IP; every process sharing it shares one budget. */
  egressId: string;
}

export const DEFAULT_LIMITER: RateLimiterOptions = {
  max: 200,
  windowMs: 10_000,
  margin: 0,
  windowPadMs: 250,
  lateAfterMs: 100,
  holdUnansweredAfterMs: 5_000,
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
  /** Permits used later than lateAfterMs after they fell due, and moved later in the log. */
  latePermits: number;
  /** How late those permits were used, summed. */
  lateMs: number;
  /** Permits moved earlier once their request was answered. */
  answerDated: number;
  /** How much earlier, summed. */
  answerDatedMs: number;
  /** Permits moved later once their request was answered (a slow answer: counted late, maybe). */
  answerDatedLater: number;
  /** How much later, summed. */
  answerDatedLaterMs: number;
  /** Times an entry was moved later because its request had no answer yet, or was given up. */
  unansweredHeld: number;
  /** Permits whose requests are out now: neither answered nor given up (a gauge). */
  unansweredOut: number;
}

/**
 * A permit its request holds until it ends, so the log can date its entry by what happened:
 * exactly one of the two is called.
 */
export interface Permit {
  /** The platform answered; performance.now() when the answer's head arrived. */
  answered(atMs: number): void;
  /**
   * Given up with no answer that bounds the arrival (a 5xx, a network failure, a timeout): with
   * holdUnansweredAfterMs set, the entry is moved to now, so the pad covers the way the request
   * may still be on.
   */
  unanswered(): void;
}

/** A permit as this process holds it until its request leaves. */
interface Grant {
  member: string;
  /** Redis's clock (ms) when the permit falls due: its score in the log. */
  dueAt: number;
  /** In how many ms from the reply the request is due (0: at once). */
  dueInMs: number;
  /** performance.now() when the permit was asked for: the earliest the reply can date from. */
  askedAt: number;
  /** Its score in the log now: dueAt, or where it was moved since (late, answered, held). */
  score: number;
}

/** Most time between two looks at the requests still without an answer (holdUnansweredAfterMs). */
const HOLD_TICK_MS = 1_000;

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
 * then margin 4 / pad 250 ms / gap 13 ms, load average 5 on 2 cores): at most 196 arrivals
 * in any 10 s window, no 429, 98 % of the budget used. With answer dating and the hold of
 * unanswered requests, margin 0: at most 200, no 429, the whole budget. Without the gap, a run
 * under the same load saw 5 answers 429: whole-window bursts spread the delay between permit and
 * arrival.
 * A 100 ms pad passed that run, but the sync-button benchmark (two worker processes, the stub
 * and PostgreSQL on 2 cores) then saw one 429 in each of two runs, 200 arrivals inside 9.9 s:
 * the pad covers the spread between permit and arrival on a loaded machine, so it stays 250 ms.
 */
export class RedisRateLimiter {
  private readonly logKey: string;
  private readonly pauseKey: string;
  private readonly priorityLogKey: string;
  private readonly lastGrantKey: string;
  private readonly waiterKeys: Record<Lane, string>;
  private readonly memberPrefix = randomBytes(6).toString('hex');
  private readonly minGapMs: number;
  /** Permits per window: max less the margin. */
  private readonly permits: number;
  /** The window the log counts over: the platform's, padded for network delay. */
  private readonly paddedWindowMs: number;
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
    latePermits: 0,
    lateMs: 0,
    answerDated: 0,
    answerDatedMs: 0,
    answerDatedLater: 0,
    answerDatedLaterMs: 0,
    unansweredHeld: 0,
    unansweredOut: 0,
  };
  /** Permits whose requests have not ended yet, and their lanes. */
  private readonly unanswered = new Map<Grant, Lane>();
  private holdTimer: NodeJS.Timeout | undefined;
  /**
   * holdUnansweredAfterMs, at most half the window, and how often it is looked at (half of it, at
   * most HOLD_TICK_MS): a hold comes at most 3/4 of the window past the pad after the entry's
   * date, so at least a quarter of the window before the entry would leave (4 s by default: a
   * 5 s hold looked at every 1 s in a 10 s window) for a stalled event loop.
   */
  private readonly holdAfterMs: number | undefined;
  private readonly holdTickMs: number;

  constructor(
    private readonly redis: Redis,
    keyPrefix: string,
    private readonly options: RateLimiterOptions,
    private readonly log: Logger,
  ) {
    if (!(options.windowMs > 0)) throw new Error('rate limiter: windowMs must be a positive number of ms');
    const permits = options.max - options.margin;
    if (permits < 1) throw new Error('rate limiter: max - margin must be at least 1');
    this.permits = permits;
    this.paddedWindowMs = options.windowMs + options.windowPadMs;
    const share = options.priorityShare ?? 0.5;
    if (!(share > 0 && share <= 1)) throw new Error('rate limiter: priorityShare must be in (0, 1]');
    this.priorityCap = Math.max(1, Math.floor(permits * share));
    const reserve = options.priorityReserve ?? 0.2;
    if (!(reserve >= 0 && reserve < 1)) throw new Error('rate limiter: priorityReserve must be in [0, 1)');
    this.reserve = Math.floor(permits * reserve);
    const holdAfter = options.holdUnansweredAfterMs;
    if (holdAfter !== undefined && !(holdAfter > 0))
      throw new Error('rate limiter: holdUnansweredAfterMs must be a positive number of ms');
    this.holdAfterMs =
      holdAfter === undefined ? undefined : Math.max(2, Math.min(holdAfter, options.windowMs / 2));
    this.holdTickMs = Math.min(HOLD_TICK_MS, Math.floor((this.holdAfterMs ?? 2) / 2));
    const averageGapMs = this.paddedWindowMs / permits;
    this.minGapMs = Math.max(0, Math.floor(options.minGapMs ?? averageGapMs / 4));
    // A hash tag keeps every key in one slot on a Redis Cluster.
    const base = `${keyPrefix}:ratelimit:{${options.egressId}}`;
    this.logKey = `${base}:log`;
    this.pauseKey = `${base}:paused-until`;
    this.priorityLogKey = `${base}:priority-log`;
    this.lastGrantKey = `${base}:last-grant`;
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
  async acquire(): Promise<Permit> {
    const lane = this.lanes[currentLane()];
    // A caller held to a share of the window (window-share.ts) waits for its share first.
    const share = lane.lane === 'bulk' ? currentWindowShare() : undefined;
    // A kind metered beside a share (window-share.ts): its demand is measured without its waits.
    const meter = lane.lane === 'bulk' ? currentDemandMeter() : undefined;
    meter?.asking();
    if (share) await share.take(this.permits, this.paddedWindowMs, this.closing.signal);
    lane.queued++;
    const turn = lane.tail.then(() => this.acquireInTurn(lane)).finally(() => lane.queued--);
    lane.tail = turn.catch(() => undefined);
    const grant = await turn;
    if (grant.dueInMs > 0) await sleep(grant.dueInMs, this.closing.signal);
    this.redateIfLate(grant, lane.lane);
    meter?.granted();
    this.holdWhileUnanswered(grant, lane.lane);
    return {
      answered: (atMs) => {
        this.unanswered.delete(grant);
        this.dateByAnswer(grant, lane.lane, atMs);
      },
      unanswered: () => {
        if (this.unanswered.delete(grant)) this.holdLater(grant, lane.lane, this.redisNow(grant), 0);
      },
    };
  }

  /**
   * The platform counts a request from when it arrives (F3), and one still without an answer may
   * not have arrived yet: while it is out, its entry is moved to now less the pad (so it leaves a
   * window after now) before it would leave the log, again and again, so the log does not drop it
   * while the platform may still count it; when it is given up, to that moment, so the pad covers
   * the way it may still be on. Without this the margin had to cover such stragglers. One timer
   * per limiter, and no write while every request is answered within holdUnansweredAfterMs.
   * (docs/decisions.md, "The whole window: no margin, and a request without an answer is held".)
   */
  private holdWhileUnanswered(grant: Grant, lane: Lane): void {
    const afterMs = this.holdAfterMs;
    if (afterMs === undefined || this.closing.signal.aborted) return;
    this.unanswered.set(grant, lane);
    this.holdTimer ??= setInterval(() => {
      for (const [held, heldLane] of this.unanswered) {
        this.holdLater(held, heldLane, this.redisNow(held) - this.options.windowPadMs, afterMs);
      }
    }, this.holdTickMs).unref();
  }

  /** Redis's clock now, for a permit (see redisClockAt). */
  private redisNow(grant: Grant): number {
    return this.redisClockAt(grant, performance.now());
  }

  /**
   * Redis's clock at `atMs` (this process's monotonic clock), for a permit: its reading when the
   * script ran (dueAt - dueInMs, after askedAt) plus the time since the ask, +1 because Redis's
   * clock is read in whole ms, floored. Never earlier than the true reading: the safe side.
   */
  private redisClockAt(grant: Grant, atMs: number): number {
    return grant.dueAt - grant.dueInMs + Math.ceil(atMs - grant.askedAt) + 1;
  }

  /** Moves a permit's entry to `score` when that is more than `byMs` later than it is now. */
  private holdLater(grant: Grant, lane: Lane, score: number, byMs: number): void {
    if (score - grant.score <= byMs) return;
    this.moveEntry(grant, lane, score)
      .then((moved) => {
        if (moved) {
          this.counters.unansweredHeld++;
          return;
        }
        // Only a hold later than the timer allows (an event loop stalled for seconds) finds it
        // gone; an entry gone stays gone (XX), so it is not looked at again.
        this.unanswered.delete(grant);
        this.log.warn('the rate-limit entry of an unanswered request left the window before it was held');
      })
      .catch((error: unknown) => {
        this.log.warn({ err: error }, 'could not hold the rate-limit permit of an unanswered request');
      });
  }

  /**
   * The pad stands for what the log cannot see: when the request reached the platform. Its answer
   * shows that: the platform counted the request before answering it, so it arrived no later than
   * the script's run (after askedAt, at dueAt - dueInMs in Redis's clock) plus the time from the
   * ask to the answer, all measured on this process's monotonic clock. Scored that, less the pad
   * the check adds, the entry leaves the window exactly a window after that bound, whichever way
   * that moves it: earlier than its grant on a round trip shorter than the pad, later when the
   * answer was slow (a platform that counted it late, a stalled event loop on either side), so
   * the log never lets the next window's permit come before the platform has let this request go.
   * Only the answered are dated; the pad stays for requests still on their way. One more
   * unawaited write, after the request's own (moveEntry); only a change of the log is counted.
   * (docs/decisions.md, "A permit is dated by its answer".)
   */
  private dateByAnswer(grant: Grant, lane: Lane, answeredAt: number): void {
    if (this.options.dateByAnswer === false || this.closing.signal.aborted) return;
    const arrivedBy = this.redisClockAt(grant, answeredAt);
    const score = arrivedBy - this.options.windowPadMs;
    const movedBy = score - grant.score;
    if (movedBy === 0) return;
    this.moveEntry(grant, lane, score)
      .then((moved) => {
        if (!moved) return;
        if (movedBy < 0) {
          this.counters.answerDated++;
          this.counters.answerDatedMs -= movedBy;
        } else {
          this.counters.answerDatedLater++;
          this.counters.answerDatedLaterMs += movedBy;
        }
      })
      .catch((error: unknown) => {
        this.log.warn({ err: error }, 'could not date a rate-limit permit by its answer');
      });
  }

  /**
   * The pad covers a request that leaves a little after its permit (up to lateAfterMs of it);
   * one held longer (its process's event loop stalled on other work while the permit's reply or
   * timer waited) would otherwise arrive inside a later window the log thinks it has left. Its
   * entry is moved later by the excess, measured from when the permit was asked for (so never
   * under-counted), and the window after it waits for it. Only the excess: moving it by all of
   * its lateness would cover the first lateAfterMs twice and hold later permits back for nothing
   * (docs/decisions.md, "A permit used late is moved; the pad stays 250 ms"). Not awaited: the
   * request leaves at once, and this process's later asks reach Redis after it (one connection,
   * in order).
   */
  private redateIfLate(grant: Grant, lane: Lane): void {
    const after = this.options.lateAfterMs;
    if (after === undefined) return;
    const lateMs = Math.ceil(performance.now() - grant.askedAt - grant.dueInMs);
    if (lateMs <= after) return;
    this.counters.latePermits++;
    this.counters.lateMs += lateMs;
    this.moveEntry(grant, lane, grant.dueAt + lateMs - after).catch((error: unknown) => {
      this.log.warn({ err: error, lateMs }, 'could not re-date a late rate-limit permit');
    });
  }

  /**
   * Moves a permit's entry to `score` in the log, and in the priority lane's log for a priority
   * permit; resolves whether the log changed. XX: an entry the window already dropped stays
   * dropped. The logs live as long as the script would keep them after their newest entry, from
   * now, so an entry moved later does not lapse with its key.
   */
  private moveEntry(grant: Grant, lane: Lane, score: number): Promise<boolean> {
    // Set at once, so a move decided before this one's reply compares with it; put back if the
    // write fails, so the next hold tries again.
    const previous = grant.score;
    grant.score = score;
    const ttlMs = this.paddedWindowMs + LOG_OUTLIVES_WINDOW_MS;
    const batch = this.redis
      .multi()
      .zadd(this.logKey, 'XX', 'CH', score, grant.member)
      .pexpire(this.logKey, ttlMs);
    if (lane === 'priority')
      batch.zadd(this.priorityLogKey, 'XX', score, grant.member).pexpire(this.priorityLogKey, ttlMs);
    return batch.exec().then(
      (replies) => replies?.[0]?.[1] === 1,
      (error: unknown) => {
        if (grant.score === score) grant.score = previous;
        throw error;
      },
    );
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
    return { ...this.counters, unansweredOut: this.unanswered.size };
  }

  /**
   * Rejects waiting and future acquisitions, and stops holding other processes back. Requests
   * still out are given up here (their own give-up comes after): each entry is moved to now, on
   * the connection before it closes, so the pad covers the way they may still be on.
   */
  close(): void {
    if (this.closing.signal.aborted) return;
    for (const [grant, lane] of this.unanswered) this.holdLater(grant, lane, this.redisNow(grant), 0);
    this.unanswered.clear();
    clearInterval(this.holdTimer);
    this.closing.abort(new LimiterClosedError());
    for (const lane of Object.values(this.lanes)) {
      if (lane.queued === 0) continue;
      // Best effort: a registration left behind lapses on its own (WAITER_GRACE_MS after its wait).
      this.redis.hdel(this.waiterKeys[lane.lane], lane.waiterId).catch(() => undefined);
    }
  }

  /** Takes a permit in turn. */
  private async acquireInTurn(lane: LaneQueue): Promise<Grant> {
    const started = Date.now();
    let waited = false;
    let grant: Grant;
    for (;;) {
      if (this.closing.signal.aborted) throw new LimiterClosedError();
      const askedAt = performance.now();
      const answer = await this.tryOnce(lane);
      if (answer.granted) {
        grant = {
          member: answer.member,
          dueAt: answer.dueAt,
          dueInMs: answer.ms,
          askedAt,
          score: answer.dueAt,
        };
        break;
      }
      waited = true;
      await sleep(answer.ms, this.closing.signal);
    }
    const { dueInMs } = grant;
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
    return grant;
  }

  /** A permit (its request due in ms, at dueAt in Redis's clock), or how long until one may be free. */
  private async tryOnce(
    lane: LaneQueue,
  ): Promise<{ granted: true; ms: number; member: string; dueAt: number } | { granted: false; ms: number }> {
    const member = `${this.memberPrefix}:${++this.sequence}`;
    const reply = await ACQUIRE_PERMIT.run(
      this.redis,
      [
        this.logKey,
        this.pauseKey,
        this.priorityLogKey,
        this.waiterKeys.priority,
        this.waiterKeys.bulk,
        this.lastGrantKey,
      ],
      [
        this.permits,
        this.paddedWindowMs,
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
    // A grant always carries its score (the script answers {1, ms, at}); a refusal does not.
    const [granted, ms, dueAt] = reply as [1, number, number] | [0, number];
    return granted === 1
      ? { granted: true, ms: Math.max(0, ms), member, dueAt }
      : { granted: false, ms: Math.max(1, ms) };
  }
}
