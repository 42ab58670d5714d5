import { describe, expect, it } from 'vitest';
import {
  DateValue,
  dateOf,
  decimalFromMinor,
  minorFromDecimal,
  normaliseRate,
} from '../../../../src/erp/tryton/codec.ts';

describe('Tryton JSON-RPC values', () => {
  it('writes minor units as exact decimals, for any exponent and sign', () => {
    expect(decimalFromMinor(1234, 2)).toEqual({ __class__: 'Decimal', decimal: '12.34' });
    expect(decimalFromMinor(-5, 2).decimal).toBe('-0.05');
    expect(decimalFromMinor(7, 0).decimal).toBe('7');
    expect(decimalFromMinor(1, 3).decimal).toBe('0.001');
    expect(decimalFromMinor(9_007_199_254_740_991, 2).decimal).toBe('90071992547409.91');
  });

  it('reads decimals back into minor units, rounding extra digits half away from zero', () => {
    expect(minorFromDecimal('12.34', 2)).toBe(1234);
    expect(minorFromDecimal('-0.05', 2)).toBe(-5);
    expect(minorFromDecimal('100', 2)).toBe(10_000);
    expect(minorFromDecimal('1.005', 2)).toBe(101);
    expect(minorFromDecimal('-1.005', 2)).toBe(-101);
    expect(() => minorFromDecimal('1e3', 2)).toThrow();
  });

  it('round-trips dates and trims rates the way the platform wants them', () => {
    expect(DateValue.parse(dateOf('2025-02-09'))).toBe('2025-02-09');
    expect(normaliseRate('0.200000')).toBe('0.2');
    expect(normaliseRate('0')).toBe('0');
    expect(normaliseRate('0.0')).toBe('0');
    expect(normaliseRate('-0.20')).toBe('-0.2');
  });
});
