import { describe, expect, inject, it } from 'vitest';
import type { DemoSummary } from '../../src/commands/demo-summary.ts';
import { runCli } from '../support/cli.ts';

describe('ledgersync demo through the real binary', () => {
  it('--json prints one JSON document, the summary; its failures add up and do not fail the demo (exit 0)', async () => {
    const result = await runCli(
      ['demo', '--json'],
      { DATABASE_URL: inject('databaseUrl'), REDIS_URL: inject('redisUrl'), PLATFORM_BASE_URL: undefined },
      240_000,
    );
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    expect(result.stdout.trim().split('\n'), 'one document, nothing else on stdout').toHaveLength(1);
    const summary = JSON.parse(result.stdout) as DemoSummary;
    expect(summary.books.balanced).toBe(true);
    expect(summary.kinds.map((k) => k.kind)).toEqual([
      'transactions',
      'reimbursements',
      'transfers',
      'cashbacks',
      'bills',
    ]);
    // The seeded world holds objects a bookkeeper must fix: failures, each with its reason.
    expect(summary.failures.total).toBeGreaterThan(0);
    expect(summary.failures.total).toBe(summary.kinds.reduce((n, k) => n + k.failed, 0));
    expect(summary.failures.reasons.reduce((n, r) => n + r.n, 0)).toBe(summary.failures.total);
    // The progress lines went to stderr.
    expect(result.stderr).toContain('Books      trial balance is zero in every currency');
  }, 300_000);
});
