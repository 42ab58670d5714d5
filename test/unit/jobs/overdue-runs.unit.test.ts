import { describe, expect, it } from 'vitest';
import { overdueRun } from '../../../jobs/overdue-runs.ts';
import { cadenceOf, nearestRun } from '../../../jobs/schedule-cadence.ts';

const UTC = 'UTC';
const HOUR = 3_600_000;
const DEFAULTS = ['0 */2 * * 1-5', '0 */12 * * 0,6'];
const at = (iso: string) => Date.parse(iso);

describe('schedule cadence (docs/platform.md G10: polling cadence)', () => {
  it('G10: on a weekday the object syncs last fired at the even hour and fire every 2 h', () => {
    // 2025-01-08 is a Wednesday.
    const cadence = cadenceOf(DEFAULTS, UTC, at('2025-01-08T11:17:05Z'));
    expect(cadence.lastWindow?.toISOString()).toBe('2025-01-08T10:00:00.000Z');
    expect(cadence.periodMs).toBe(2 * HOUR);
  });

  it('G10: at a weekend they fire every 12 h, and Friday evening hands over to Saturday', () => {
    // 2025-01-11 is a Saturday.
    const saturday = cadenceOf(DEFAULTS, UTC, at('2025-01-11T15:00:00Z'));
    expect(saturday.lastWindow?.toISOString()).toBe('2025-01-11T12:00:00.000Z');
    expect(saturday.periodMs).toBe(12 * HOUR);
    const friday = cadenceOf(DEFAULTS, UTC, at('2025-01-10T23:30:00Z'));
    expect(friday.lastWindow?.toISOString()).toBe('2025-01-10T22:00:00.000Z');
    expect(friday.periodMs).toBe(2 * HOUR);
  });

  it('a window is the second the expression fires, including the instant itself; seconds fields count', () => {
    expect(nearestRun('30 1 * * *', UTC, at('2025-01-08T01:30:00Z'), 'back')?.toISOString()).toBe(
      '2025-01-08T01:30:00.000Z',
    );
    expect(nearestRun('30 1 * * *', UTC, at('2025-01-08T01:29:59Z'), 'back')?.toISOString()).toBe(
      '2025-01-07T01:30:00.000Z',
    );
    expect(nearestRun('*/20 * * * * *', UTC, at('2025-01-08T01:29:59Z'), 'back')?.toISOString()).toBe(
      '2025-01-08T01:29:40.000Z',
    );
    expect(nearestRun('*/20 * * * * *', UTC, at('2025-01-08T01:29:59Z'), 'ahead')?.toISOString()).toBe(
      '2025-01-08T01:30:00.000Z',
    );
  });

  it('a schedule with no window within 8 days, or one that cannot be read, has no cadence', () => {
    expect(cadenceOf(['0 0 1 1 *'], UTC, at('2025-06-01T00:00:00Z'))).toEqual({
      lastWindow: null,
      periodMs: null,
    });
    expect(cadenceOf(['not a cron'], UTC, at('2025-06-01T00:00:00Z')).lastWindow).toBeNull();
  });
});

describe('overdue runs at worker start', () => {
  const now = at('2025-01-08T11:17:05Z');
  const cadence = cadenceOf(DEFAULTS, UTC, now);

  it('G10: a kind whose last good run is older than its schedule period is due, in the missed window', () => {
    const due = overdueRun('transactions', new Date(now - 3 * HOUR), cadence, now);
    expect(due).toEqual({
      kind: 'transactions',
      window: new Date('2025-01-08T10:00:00Z'),
      reason: 'last good run 3 h ago, schedule every 2 h',
    });
  });

  it('G10: a kind that never ran well is due; one whose last good run is within the period is not', () => {
    expect(overdueRun('bills', undefined, cadence, now)?.reason).toBe('no good run yet, schedule every 2 h');
    expect(overdueRun('bills', new Date(now - 90 * 60_000), cadence, now)).toBeNull();
  });

  it('a schedule with no window in the last 8 days (kept quiet with a yearly date) has nothing overdue', () => {
    const rare = cadenceOf(['0 0 1 1 *'], UTC, at('2025-06-01T00:00:00Z'));
    expect(overdueRun('coa', undefined, rare, now)).toBeNull();
    expect(overdueRun('coa', new Date(now - 100 * HOUR), rare, now)).toBeNull();
  });
});
