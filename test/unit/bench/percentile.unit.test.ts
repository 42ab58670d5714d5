import { describe, expect, it } from 'vitest';
import { distribution, percentile } from '../../../bench/lib/percentile.ts';

describe('percentile (nearest rank)', () => {
  const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted on purpose

  it('takes the value at rank ceil(p/100 * n)', () => {
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([7, 3, 5], 50)).toBe(5);
  });

  it('does not reorder its input', () => {
    const input = [3, 1, 2];
    percentile(input, 50);
    expect(input).toEqual([3, 1, 2]);
  });

  it('keeps infinities (a press that never finished counts as the slowest)', () => {
    expect(percentile([1, 2, Number.POSITIVE_INFINITY], 99)).toBe(Number.POSITIVE_INFINITY);
    expect(percentile([1, 2, Number.POSITIVE_INFINITY], 50)).toBe(2);
  });

  it('is NaN for no values and refuses p outside 0..100', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });

  it('summarizes a distribution', () => {
    expect(distribution(values)).toEqual({ count: 100, min: 1, p50: 50, p90: 90, p99: 99, max: 100 });
  });
});
