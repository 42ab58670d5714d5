import { AsyncLocalStorage } from 'node:async_hooks';
import { sleep } from './backoff.ts';

/**
 * A cap on the share of each rate window that the requests started inside runWithinShare may
 * take, while the share is limiting. A sync of several kinds side by side reads some kinds with
 * one cursor (one page per round trip, nothing to split: docs/platform.md F28) and transactions
 * with many: left to itself, transactions' cursors take a whole window's permits in its first
 * seconds, and the one-cursor kinds then wait for the next window between every few pages. Held
 * to a share while those kinds read, transactions leave them permits all through the window, and
 * take the whole budget again once they are done (release).
 */
export class WindowShare {
  private readonly taken: number[] = [];
  private limiting = true;
  private readonly released: Promise<void>;
  private wake: () => void = () => {};

  private changed: Promise<void>;
  private wakeChanged: () => void = () => {};

  /** share: the part of a window's permits these requests may take while limiting (0-1]. */
  constructor(private share: number) {
    checkShare(share);
    this.released = new Promise((resolve) => {
      this.wake = resolve;
    });
    this.changed = this.nextChange();
  }

  /** A new share (a kind beside these requests finished): waiting requests look again at once. */
  setShare(share: number): void {
    checkShare(share);
    this.share = share;
    const wake = this.wakeChanged;
    this.changed = this.nextChange();
    wake();
  }

  private nextChange(): Promise<void> {
    return new Promise((resolve) => {
      this.wakeChanged = resolve;
    });
  }

  /** Lifts the cap: every waiting request goes on to the limiter at once. */
  release(): void {
    this.limiting = false;
    this.wake();
  }

  /** Waits until a request may ask the limiter for a permit: `permits` per `windowMs` in all. */
  async take(permits: number, windowMs: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (!this.limiting) return;
      const now = Date.now();
      while (this.taken.length > 0 && this.taken[0]! <= now - windowMs) this.taken.shift();
      if (this.taken.length < Math.max(1, Math.floor(permits * this.share))) {
        this.taken.push(now);
        return;
      }
      await Promise.race([sleep(this.taken[0]! + windowMs - now, signal), this.released, this.changed]);
    }
  }
}

function checkShare(share: number): void {
  if (!(share > 0 && share <= 1)) throw new Error('window share must be in (0, 1]');
}

const current = new AsyncLocalStorage<WindowShare>();

/** Runs fn with every platform request it starts (retries and token requests too) within share. */
export function runWithinShare<T>(share: WindowShare, fn: () => T): T {
  return current.run(share, fn);
}

/** The share of the calling context, if any. */
export function currentWindowShare(): WindowShare | undefined {
  return current.getStore();
}
