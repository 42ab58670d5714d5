import { describe, expect, it } from 'vitest';
import { Faults } from '../../src/faults.ts';

/**
 * Injected latency (PUT /__stub/faults): the most specific route key that sets one gives it, so a
 * configuration that reads "reads in 15 s, posts in 8 s, every other call in 5 s" answers that way.
 * Added up, the same configuration answered reads in 20 s and posts in 13 s.
 */
describe('stub fault latency', () => {
  const faults = new Faults();
  faults.configure(
    {
      routes: {
        'GET /transactions': { latency_ms: 15_000 },
        'POST /accounting/syncs': { latency_ms: 8_000, latency_after_commit_ms: 100 },
        '/accounting/codings': { latency_ms: 2_000 },
        'GET *': { latency_ms: 3_000 },
        '*': { latency_ms: 5_000, latency_after_commit_ms: 50, error_rate: 0 },
      },
    },
    0,
  );
  const latency = (method: string, pattern: string) => faults.decide(method, pattern, pattern, 0);

  it('a route with a latency of its own takes it; "*" is the latency of the routes without one', () => {
    expect(latency('GET', '/transactions').latencyMs).toBe(15_000);
    expect(latency('POST', '/accounting/syncs').latencyMs).toBe(8_000);
    expect(latency('POST', '/accounting/codings').latencyMs).toBe(2_000);
    expect(latency('GET', '/entities').latencyMs).toBe(3_000);
    expect(latency('POST', '/accounting/vendors').latencyMs).toBe(5_000);
  });

  it('the latency after the commit follows the same rule', () => {
    expect(latency('POST', '/accounting/syncs').latencyAfterCommitMs).toBe(100);
    expect(latency('GET', '/transactions').latencyAfterCommitMs).toBe(50);
  });
});
