import { describe, expect, it } from 'vitest';
import { parseRate, splitTax } from '../../../../src/erp/core/tax.ts';

const vat20 = [{ id: 'tr-20', rate: '0.2', accountId: 'gl-vat' }];
const reverse = [
  { id: 'in', rate: '0.2', accountId: 'gl-in' },
  { id: 'out', rate: '-0.2', accountId: 'gl-out' },
];

describe('parseRate', () => {
  it('scales decimal strings to millionths, sign included', () => {
    expect(parseRate('0.05')).toBe(50_000n);
    expect(parseRate('-0.2')).toBe(-200_000n);
    expect(parseRate('0.072500')).toBe(72_500n);
    expect(parseRate('1')).toBe(1_000_000n);
  });

  it('refuses what is not a rate', () => {
    expect(() => parseRate('5%')).toThrow(/not a decimal rate/);
    expect(() => parseRate('0.1234567')).toThrow(/more than 6 decimals/);
  });
});

describe('splitTax', () => {
  it('takes 20% VAT out of a tax-inclusive amount', () => {
    expect(splitTax(12_000, vat20)).toEqual({
      netMinor: 10_000,
      taxes: [{ rateId: 'tr-20', accountId: 'gl-vat', amountMinor: 2_000 }],
    });
  });

  it('splits a refund as the exact mirror of its purchase', () => {
    const purchase = splitTax(1_999, vat20)!;
    const refund = splitTax(-1_999, vat20)!;
    expect(refund.netMinor).toBe(-purchase.netMinor);
    expect(refund.taxes[0]!.amountMinor).toBe(-purchase.taxes[0]!.amountMinor);
  });

  it('keeps the gross on the net line under reverse charge, with cancelling tax parts', () => {
    const split = splitTax(11_999, reverse)!;
    expect(split.netMinor).toBe(11_999);
    expect(split.taxes.map((t) => t.amountMinor)).toEqual([2_400, -2_400]);
  });

  it('leaves an amount whole when the code has no rates (exempt)', () => {
    expect(splitTax(500, [])).toEqual({ netMinor: 500, taxes: [] });
  });

  it('always adds back up to the gross, whatever the rounding', () => {
    const rates = [
      { id: 'a', rate: '0.0725', accountId: 'x' },
      { id: 'b', rate: '0.01', accountId: 'y' },
    ];
    for (let gross = -2_000; gross <= 2_000; gross += 7) {
      const split = splitTax(gross, rates)!;
      expect(split.netMinor + split.taxes.reduce((s, t) => s + t.amountMinor, 0)).toBe(gross);
    }
  });

  it('has no answer when the rates add up to -100% or less', () => {
    expect(splitTax(100, [{ id: 'n', rate: '-1', accountId: 'x' }])).toBeNull();
  });
});
