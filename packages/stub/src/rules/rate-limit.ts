/**
 * docs/platform.md F3: `max` requests per rolling `windowMs` per source IP, counted on arrival;
 * answered-429 requests do not count. An exact sliding log: a ring of the last `max` admitted
 * arrival times per IP, so a check is O(1) amortised and memory is `max` numbers per IP.
 */
export interface RateLimitConfig {
  max: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitConfig = { max: 200, windowMs: 10_000 };

export type RateDecision = { allowed: true } | { allowed: false; retryAfterS: number; retryAfterMs: number };

class SlidingLog {
  private readonly times: Float64Array;
  private head = 0;
  private count = 0;

  constructor(private readonly max: number) {
    this.times = new Float64Array(max);
  }

  admit(now: number, windowMs: number): RateDecision {
    while (this.count > 0 && this.times[this.head]! <= now - windowMs) {
      this.head = (this.head + 1) % this.max;
      this.count--;
    }
    if (this.count >= this.max) {
      // The oldest admitted arrival leaves the window at oldest + windowMs: a slot frees then.
      const retryAfterMs = this.times[this.head]! + windowMs - now;
      return { allowed: false, retryAfterMs, retryAfterS: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    }
    this.times[(this.head + this.count) % this.max] = now;
    this.count++;
    return { allowed: true };
  }

  /** Takes back the latest admission (a request answered 429 after all does not count, F3). */
  unadmit(): void {
    if (this.count > 0) this.count--;
  }
}

export class RateLimiter {
  private readonly logs = new Map<string, SlidingLog>();
  private config: RateLimitConfig | false;

  constructor(config: RateLimitConfig | false = DEFAULT_RATE_LIMIT) {
    this.config = config;
  }

  get current(): RateLimitConfig | false {
    return this.config;
  }

  configure(config: RateLimitConfig | false): void {
    this.config = config;
    this.logs.clear();
  }

  admit(ip: string, now: number): RateDecision {
    if (!this.config) return { allowed: true };
    let log = this.logs.get(ip);
    if (!log) {
      log = new SlidingLog(this.config.max);
      this.logs.set(ip, log);
    }
    return log.admit(now, this.config.windowMs);
  }

  /** The request just admitted from `ip` was answered 429 (injected storm): it does not count. */
  unadmit(ip: string): void {
    this.logs.get(ip)?.unadmit();
  }

  reset(): void {
    this.logs.clear();
  }
}
