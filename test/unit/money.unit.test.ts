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

describe('docs/platform.md G1: amounts are counted exactly from their decimal text, or refused', () => {
  const MAX = Number.MAX_SAFE_INTEGER; // 2^53 − 1 minor units: the most a number counts exactly

  it('G1: 1e20, 1e21 and 1e22 in major units are refused as too large, never read as one minor unit', () => {
    // toFixed writes 1e21 as "1e+21", whose leading digit parseInt used to read: 1 cent, SYNCED.
    for (const amount of [1e20, 1e21, 1e22, -1e21, '1e21', '1000000000000000000000']) {
      expect(() => toMinorUnits(amount, 2), String(amount)).toThrow(/too large to be counted exactly/);
    }
    expect(() => readMoney(1e21, 'USD')).toThrow(
      'the amount 1,000,000,000,000,000,000,000 is too large to be counted exactly (the most is 90,071,992,547,409.91)',
    );
    for (const minor of [1e20, 1e21, 1e22, -1e21]) {
      expect(() => readMoney({ amount: minor, currency_code: 'USD' })).toThrow(/too large/);
      expect(() => readMoney({ value: minor, currency: 'USD' })).toThrow(/too large/);
    }
  });

  it('G1: 2^53 − 1 minor units is counted; 2^53 + 1 (which the JSON parser already made 2^53) is refused', () => {
    expect(readMoney({ amount: MAX, currency_code: 'USD' })).toEqual({ minor: MAX, currency: 'USD' });
    expect(readMoney({ amount: -MAX, currency_code: 'USD' })).toEqual({ minor: -MAX, currency: 'USD' });
    expect(readMoney({ currency: 'JPY', value: MAX })).toEqual({ minor: MAX, currency: 'JPY' });
    const afterMax = JSON.parse('9007199254740993') as number;
    expect(afterMax).toBe(2 ** 53); // what the platform's 2^53 + 1 reads as
    expect(() => readMoney({ amount: afterMax, currency_code: 'USD' })).toThrow(
      'the amount 9,007,199,254,740,992 (in minor units) is too large to be counted exactly (the most is 9,007,199,254,740,991)',
    );
    expect(() => readMoney({ amount: -afterMax, currency_code: 'USD' })).toThrow(/too large/);
    // In major units, as a number and as text.
    expect(toMinorUnits(MAX, 0)).toBe(MAX);
    expect(toMinorUnits('9007199254740991', 0)).toBe(MAX);
    expect(toMinorUnits('-90071992547409.91', 2)).toBe(-MAX);
    expect(() => toMinorUnits(afterMax, 0)).toThrow(/too large/);
    expect(() => toMinorUnits('9007199254740993', 0)).toThrow(/too large/);
    expect(() => toMinorUnits('90071992547409.92', 2)).toThrow(/too large/);
  });

  it('G1: a JSON number too large to tell one minor unit from the next is refused, never shifted a cent', () => {
    // The platform's 80000000000000.01 reads as the float of .02: reading it would post a cent nobody entered.
    const sent = JSON.parse('80000000000000.01') as number;
    expect(sent).toBe(JSON.parse('80000000000000.02'));
    expect(() => toMinorUnits(sent, 2)).toThrow(/cannot tell one minor unit from the next/);
    expect(() => toMinorUnits(JSON.parse('90071992547409.91') as number, 2)).toThrow(
      /cannot tell one minor unit from the next/,
    );
    // Below 2^46 (about 7e13) a float still tells cents apart; the same amounts as text are exact.
    expect(toMinorUnits(70368744177663.99, 2)).toBe(7036874417766399);
    expect(toMinorUnits('80000000000000.01', 2)).toBe(8000000000000001);
  });

  it('G1: more decimals than the currency has are refused, never rounded; trailing zeros are fine', () => {
    expect(() => toMinorUnits(12.345, 2)).toThrow(
      'the amount 12.345 has more decimals than its currency has (2)',
    );
    expect(() => toMinorUnits('12.3450', 2)).toThrow(/more decimals/);
    expect(() => toMinorUnits('0.0000000000000000000001', 2)).toThrow(/more decimals/);
    expect(() => toMinorUnits(1e-7, 2)).toThrow(
      'the amount 0.0000001 has more decimals than its currency has (2)',
    );
    expect(() => readMoney(-0.125, 'USD')).toThrow(/more decimals/);
    expect(toMinorUnits('12.3400000', 2)).toBe(1234);
    expect(toMinorUnits('1.5e3', 2)).toBe(150_000);
    expect(toMinorUnits(-0.07, 2)).toBe(-7);
  });

  it('G1: every exponent the platform sends (JPY 0, USD 2, KWD 3, CLF 4): the last exact amount and the next', () => {
    const cases: [string, string, string, string, string][] = [
      ['JPY', '1', '0.5', '9007199254740991', '9007199254740992'],
      ['USD', '0.01', '0.015', '90071992547409.91', '90071992547409.92'],
      ['KWD', '0.001', '0.0015', '9007199254740.991', '9007199254740.992'],
      ['CLF', '0.0001', '0.00015', '900719925474.0991', '900719925474.0992'],
    ];
    for (const [code, smallest, tooFine, last, next] of cases) {
      const exponent = currencyExponent(code);
      expect(toMinorUnits(smallest, exponent), code).toBe(1);
      expect(toMinorUnits(`-${smallest}`, exponent), code).toBe(-1);
      expect(toMinorUnits(last, exponent), code).toBe(MAX);
      expect(() => toMinorUnits(next, exponent), code).toThrow(/too large/);
      expect(() => toMinorUnits(tooFine, exponent), code).toThrow(/more decimals/);
      expect(() => toMinorUnits(Number(tooFine), exponent), code).toThrow(/more decimals/);
    }
    expect(readMoney(15800, 'JPY')).toEqual({ minor: 15800, currency: 'JPY' });
    expect(() => readMoney(0.5, 'JPY')).toThrow('the amount 0.5 has more decimals than its currency has (0)');
    expect(readMoney(12.345, 'KWD')).toEqual({ minor: 12345, currency: 'KWD' });
    expect(readMoney(1.2345, 'CLF')).toEqual({ minor: 12345, currency: 'CLF' });
  });

  it('G1: minor → major → minor is the identity for every exponent, through text and never toFixed', () => {
    const samples = [0, 1, -1, 5, 99, 100, 1234, -19999, 123456789, 7036874417766399, -7036874417766399];
    for (const code of ['JPY', 'USD', 'KWD', 'CLF']) {
      for (const minor of samples) {
        const major = toMajorUnits(minor, code);
        expect(toMinorUnits(major, currencyExponent(code)), `${minor} ${code}`).toBe(minor);
        expect(toMinorUnits(JSON.parse(JSON.stringify(major)) as number, currencyExponent(code))).toBe(minor);
      }
    }
    expect(() => toMajorUnits(2 ** 53, 'USD')).toThrow(/not a whole number/);
  });
});
