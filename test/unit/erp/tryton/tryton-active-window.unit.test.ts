import { describe, expect, it } from 'vitest';
import { isActive } from '../../../../src/erp/tryton/active-window.ts';

const year2025 = { from: '2025-01-01', to: '2025-12-31' };
const account = (start_date: string | null, end_date: string | null) => ({ start_date, end_date });

describe("Tryton accounts' activity, as Tryton 6.0 computes it", () => {
  it('an account without dates, or whose dates meet the fiscal year of today, is active', () => {
    expect(isActive(account(null, null), year2025)).toBe(true);
    expect(isActive(account('2024-01-01', null), year2025)).toBe(true);
    expect(isActive(account(null, '2025-03-31'), year2025)).toBe(true);
    expect(isActive(account('2025-04-01', '2025-06-30'), year2025)).toBe(true);
    expect(isActive(account('2025-12-31', '2026-06-30'), year2025)).toBe(true);
  });

  it('an account that ended before the fiscal year or starts after it is inactive', () => {
    expect(isActive(account(null, '2024-12-31'), year2025)).toBe(false);
    expect(isActive(account('2026-01-01', null), year2025)).toBe(false);
  });
});
