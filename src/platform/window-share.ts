import { AsyncLocalStorage } from 'node:async_hooks';
import { sleep } from './backoff.ts';

/**
 * The least part of a window the shared requests keep, however much the metered ones seem to
 * need: a kind read by date is never held to nothing.
 */
const LEAST_SHARE = 0.1;
/** Taken over what the meters measured: round trips vary with the machine's load. */
const RESERVE_MARGIN = 1.15;
/**
 * A kind's round trip before it has measured one (its first permit): about nine requests a second,
 * a page read at the platform's usual latency. Taken high, so a run starts as it did when each
 * one-cursor kind was given a fixed 0.45 of the window.
 */
const FIRST_GUESS_ROUND_TRIP_MS = 110;
/** Weight of the newest round trip in a meter's running figure. */
const NEWEST_WEIGHT = 0.3;
/** How often a held request looks again: the reserve follows the meters as they measure. */
const RECHECK_MS = 100;

/**
 * What one kind read beside the shared requests needs of each window, measured as it reads: one
 * permit per round trip, the time from one permit to its next request. Time spent waiting for a
 * permit is left out, so a kind held back by the budget is not taken to need less of it.
 */
export class DemandMeter {
  private lastGranted: number | null = null;
  private roundTripMs: number | null = null;
  private finished = false;

  constructor(private readonly onDone: () => void) {}

  /** A request of this kind asks the limiter for a permit. */
  asking(now = Date.now()): void {
    if (this.lastGranted === null) return;
    const gap = Math.max(1, now - this.lastGranted);
    this.roundTripMs =
      this.roundTripMs === null ? gap : this.roundTripMs * (1 - NEWEST_WEIGHT) + gap * NEWEST_WEIGHT;
  }

  /** The limiter granted it. */
  granted(now = Date.now()): void {
    this.lastGranted = now;
  }

  /** Permits this kind is taken to need in a window of `windowMs` (a done kind has left the share). */
  permitsPer(windowMs: number): number {
    return windowMs / (this.roundTripMs ?? FIRST_GUESS_ROUND_TRIP_MS);
  }

  /** The kind has read everything (or failed): it reserves nothing more. */
  done(): void {
    if (this.finished) return;
    this.finished = true;
    this.onDone();
  }
}

/**
 * How a sync of several kinds side by side divides each rate window (docs/platform.md F3). Kinds
 * read with one cursor (nothing to split, F28) send one request per round trip and need permits
 * all through the window; left to themselves, the many cursors of the kinds read by date would
 * take a whole window's permits in its first seconds and leave those kinds waiting between
 * pages. So each one-cursor kind is metered (DemandMeter) and the requests started inside
 * runWithinShare (the kinds read by date) take what the window has beyond what the meters
 * need, with a margin, and never less than a tenth of it. A kind that reads slowly (a slow ERP, a
 * loaded machine) reserves little, a finished one nothing; once every metered kind is done the
 * cap lifts (release).
 *
 * Benchmark row 1e (30,000 transactions beside 10,500 objects of four one-cursor kinds): a fixed
 * 0.45 of the window per one-cursor kind held transactions to a tenth of it while two kinds read
 * about six requests a second between them, and part of every window went unused.
 */
export class WindowShare {
  private readonly taken: number[] = [];
  private readonly meters = new Set<DemandMeter>();
  private limiting = true;
  private readonly released: Promise<void>;
  private wake: () => void = () => {};

  constructor() {
    this.released = new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  /** A meter for one kind read beside the shared requests; the cap lifts when every meter is done. */
  meter(): DemandMeter {
    const meter = new DemandMeter(() => {
      this.meters.delete(meter);
      if (this.meters.size === 0) this.release();
    });
    this.meters.add(meter);
    return meter;
  }

  /** Lifts the cap: every waiting request goes on to the limiter at once. */
  release(): void {
    this.limiting = false;
    this.wake();
  }

  /** The permits of a window of `permits` the shared requests may take, as the meters stand. */
  allowance(permits: number, windowMs: number): number {
    let needed = 0;
    for (const meter of this.meters) needed += meter.permitsPer(windowMs);
    const left = permits - Math.ceil(needed * RESERVE_MARGIN);
    return Math.max(1, Math.floor(permits * LEAST_SHARE), left);
  }

  /** Waits until a request may ask the limiter for a permit: `permits` per `windowMs` in all. */
  async take(permits: number, windowMs: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (!this.limiting) return;
      const now = Date.now();
      while (this.taken.length > 0 && this.taken[0]! <= now - windowMs) this.taken.shift();
      if (this.taken.length < this.allowance(permits, windowMs)) {
        this.taken.push(now);
        return;
      }
      const windowFrees = this.taken[0]! + windowMs - now;
      await Promise.race([sleep(Math.min(RECHECK_MS, windowFrees), signal), this.released]);
    }
  }
}

const shared = new AsyncLocalStorage<WindowShare>();
const metered = new AsyncLocalStorage<DemandMeter>();

/** Runs fn with every platform request it starts (retries and token requests too) within share. */
export function runWithinShare<T>(share: WindowShare, fn: () => T): T {
  return shared.run(share, fn);
}

/** Runs fn with every platform request it starts measured by meter. */
export function runMetered<T>(meter: DemandMeter, fn: () => T): T {
  return metered.run(meter, fn);
}

/** The share of the calling context, if any. */
export function currentWindowShare(): WindowShare | undefined {
  return shared.getStore();
}

/** The meter of the calling context, if any. */
export function currentDemandMeter(): DemandMeter | undefined {
  return metered.getStore();
}
