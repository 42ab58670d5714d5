import { describe, expect, it } from 'vitest';
import { formatAmount, formatMinor } from '../../../src/erp/money.ts';

describe('formatMinor', () => {
  it('writes minor units the way a bookkeeper reads them', () => {
    expect(formatMinor(123_456, { code: 'USD', exponent: 2 })).toBe('1,234.56 USD');
    expect(formatMinor(-5, { code: 'USD', exponent: 2 })).toBe('-0.05 USD');
    expect(formatMinor(1_500_000, { code: 'JPY', exponent: 0 })).toBe('1,500,000 JPY');
    expect(formatMinor(1, { code: 'BHD', exponent: 3 })).toBe('0.001 BHD');
  });

  it('formats zero and large amounts exactly', () => {
    expect(formatAmount(0, 2)).toBe('0.00');
    expect(formatAmount(9_007_199_254_740_991, 2)).toBe('90,071,992,547,409.91');
  });
});
