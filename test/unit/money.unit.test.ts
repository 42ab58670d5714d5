import { minorUnitRate } from '@ledgersync/stub';
import { describe, expect, it } from 'vitest';
import { currencyExponent, readMoney, toMajorUnits, toMinorUnits } from '../../src/money.ts';

describe('money: one exponent table (docs/platform.md F22)', () => {
  it('ISO 4217 exponents: JPY and CLP 0, USD and stablecoins 2, KWD and BHD 3, CLF 4', () => {
    expect([currencyExponent('JPY'), currencyExponent('clp')]).toEqual([0, 0]);
    expect([currencyExponent('USD'), currencyExponent('USDC'), currencyExponent('EUR')]).toEqual([2, 2, 2]);
    expect([currencyExponent('KWD'), currencyExponent('BHD'), currencyExponent('CLF')]).toEqual([3, 3, 4]);
  });

  it('the stub counts minor units by the same table (no second table to drift)', () => {
    for (const code of ['BIF', 'XPF', 'ISK', 'KWD', 'CLF', 'USD', 'USDT']) {
      expect(minorUnitRate(code)).toBe(10 ** currencyExponent(code));
    }
  });

  it('major ↔ minor round-trips exactly, decimal strings included', () => {
    expect(toMinorUnits('12.34', 2)).toBe(1234);
    expect(toMinorUnits(' -0.29 ', 2)).toBe(-29);
    expect(toMajorUnits(12345, 'KWD')).toBe(12.345);
    expect(() => toMinorUnits('', 2)).toThrow(RangeError);
    expect(() => toMinorUnits('twelve', 2)).toThrow(RangeError);
  });
});

describe('readMoney: the three amount forms of docs/platform.md F22', () => {
  it('F22 form 1: a major-unit number with its sibling currency', () => {
    expect(readMoney(12.34, 'usd')).toEqual({ minor: 1234, currency: 'USD' });
    expect(readMoney(5000, 'JPY')).toEqual({ minor: 5000, currency: 'JPY' });
    expect(() => readMoney(12.34, null)).toThrow(/no currency/);
  });

  it('F22 form 2: a CurrencyAmount in minor units', () => {
    expect(readMoney({ amount: 1234, currency_code: 'USD' })).toEqual({ minor: 1234, currency: 'USD' });
    expect(readMoney({ amount: -500, currency_code: 'JPY' })).toEqual({ minor: -500, currency: 'JPY' });
    expect(() => readMoney({ amount: 12.5, currency_code: 'USD' })).toThrow(/whole number/);
  });

  it('F22 form 3: {currency, value} in minor units of its own currency', () => {
    expect(readMoney({ currency: 'USD', value: 12550 })).toEqual({ minor: 12550, currency: 'USD' });
    expect(readMoney({ currency: 'JPY', value: 15800 }, 'USD')).toEqual({ minor: 15800, currency: 'JPY' });
    expect(() => readMoney({ currency: 'USD', value: 125.5 })).toThrow(/whole number/);
  });

  it('null or absent is no amount; an object of no known form is no amount either', () => {
    expect(readMoney(null, 'USD')).toBeNull();
    expect(readMoney(undefined, 'USD')).toBeNull();
    expect(readMoney({ something: 1 }, 'USD')).toBeNull();
  });
});
