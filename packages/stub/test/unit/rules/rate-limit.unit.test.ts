import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/rules/rate-limit.ts';

/** docs/platform.md F3: exact sliding log per source IP. */
describe('RateLimiter', () => {
  it('F3: 200 per rolling 10 s; the 201st is refused with Retry-After until the oldest leaves', () => {
    const limiter = new RateLimiter({ max: 200, windowMs: 10_000 });
    for (let i = 0; i < 200; i++) expect(limiter.admit('1.1.1.1', 1_000 + i * 10).allowed).toBe(true);
    const refused = limiter.admit('1.1.1.1', 4_000);
    expect(refused).toEqual({ allowed: false, retryAfterMs: 7_000, retryAfterS: 7 });
    // The first arrival (t=1000) leaves the window at t=11000, not before.
    expect(limiter.admit('1.1.1.1', 10_999).allowed).toBe(false);
    expect(limiter.admit('1.1.1.1', 11_000).allowed).toBe(true);
  });

  it('F3: refused requests do not count toward the window', () => {
    const limiter = new RateLimiter({ max: 2, windowMs: 1_000 });
    limiter.admit('ip', 0);
    limiter.admit('ip', 0);
    for (let t = 1; t < 1_000; t += 50) expect(limiter.admit('ip', t).allowed).toBe(false);
    expect(limiter.admit('ip', 1_000).allowed).toBe(true);
  });

  it('F3: the limit is per source IP; Retry-After is at least 1 whole second', () => {
    const limiter = new RateLimiter({ max: 1, windowMs: 100 });
    expect(limiter.admit('a', 0).allowed).toBe(true);
    expect(limiter.admit('b', 0).allowed).toBe(true);
    const refused = limiter.admit('a', 50);
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterS).toBe(1);
  });

  it('false disables the limit', () => {
    const limiter = new RateLimiter(false);
    for (let i = 0; i < 1_000; i++) expect(limiter.admit('ip', 0).allowed).toBe(true);
  });
});

describe('RateLimiter.unadmit', () => {
  it('F3: an injected 429 after admission is taken back and does not count', () => {
    const limiter = new RateLimiter({ max: 2, windowMs: 1_000 });
    limiter.admit('ip', 0);
    limiter.admit('ip', 1);
    limiter.unadmit('ip');
    expect(limiter.admit('ip', 2).allowed).toBe(true);
    expect(limiter.admit('ip', 3).allowed).toBe(false);
  });
});
