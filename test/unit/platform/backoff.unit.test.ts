import { describe, expect, it } from 'vitest';
import { backoffDelayMs, isRetryableStatus, retryAfterMs } from '../../../src/platform/backoff.ts';

const retry = { maxAttempts: 6, baseMs: 1_000, capMs: 8_000 };

describe('backoff (docs/platform.md G8)', () => {
  it('doubles from the base (1 s, 2 s, 4 s) and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffDelayMs(n, retry, () => 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 8_000, 8_000,
    ]);
  });

  it('jitters within the upper half of each step, so a retry never comes at once', () => {
    expect(backoffDelayMs(1, retry, () => 0)).toBe(500);
    expect(backoffDelayMs(3, retry, () => 0.5)).toBe(3_000);
  });

  it('retries 5xx (504 included) and 429, nothing else', () => {
    expect([500, 502, 503, 504, 429].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 422].some(isRetryableStatus)).toBe(false);
  });

  it('F3: reads Retry-After as whole seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3_000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5_000);
  });
});
