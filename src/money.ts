/**
 * Money, the one place that knows currency exponents and the platform's amount forms
 * (docs/platform.md F22). Every amount inside ledgersync is an integer count of the currency's
 * minor unit (cents, yen, fils), because binary floating point cannot hold 0.1 exactly.
 *
 * The platform writes amounts in three forms:
 *   - a number in major units beside a sibling currency (`amount: 12.34, currency_code: "USD"`;
 *     reimbursements name the sibling `currency`);
 *   - a CurrencyAmount `{amount: 1234, currency_code: "USD"}` in minor units;
 *   - `{currency: "USD", value: 1234}`, also in minor units (seen by production clients on
 *     `entity_amount` and `merchant_amount`).
 */

import { grouped, majorText, parseDecimal, shown } from './decimal-text.ts';

/** ISO 4217 exponents that are not 2. Unlisted codes (USD, EUR, stablecoins such as USDC) use 2. */
const EXPONENTS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Decimal places of the currency's minor unit: JPY 0, USD 2, KWD 3. */
export function currencyExponent(code: string): number {
  return EXPONENTS[code.toUpperCase()] ?? 2;
}

/**
 * Major units (a JSON number such as 12.34, or a decimal string) to integer minor units, exactly or
 * not at all: the amount is read from its decimal text with integer arithmetic, never formatted
 * through a float (toFixed writes exponent notation from 1e21 up). A JSON number has already been
 * made a float by the JSON parser; its text is the shortest one that reads back as the same float,
 * which is the text the platform sent whenever that text had 15 significant digits or fewer.
 * Refused with a RangeError a bookkeeper can act on: an amount with more decimals than the
 * currency's minor unit (12.345 USD), one beyond 2^53 − 1 minor units (the most a number counts
 * exactly), and a float so large that it cannot tell one minor unit from the next (8e13 USD).
 */
export function toMinorUnits(amount: number | string, exponent: number): number {
  if (typeof amount === 'number' && !Number.isFinite(amount))
    throw new RangeError(`the amount ${amount} is not a finite number`);
  const text = typeof amount === 'string' ? amount.trim() : String(amount);
  if (text === '') throw new RangeError('the amount is empty');
  const decimal = parseDecimal(text);
  if (!decimal) throw new RangeError(`the amount ${text} is not a number`);
  const { negative, digits } = decimal;
  // value = digits × 10^shift minor units.
  const shift = decimal.power + exponent;
  if (digits === '') return 0;
  if (shift < 0)
    throw new RangeError(
      `the amount ${shown(decimal)} has more decimals than its currency has (${exponent})`,
    );
  if (digits.length + shift > MAX_SAFE_DIGITS || BigInt(digits) * 10n ** BigInt(shift) > MAX_SAFE)
    throw new RangeError(
      `the amount ${shown(decimal)} is too large to be counted exactly (the most is ${grouped(majorText(MAX_SAFE, exponent))})`,
    );
  const minor = Number(BigInt(digits) * 10n ** BigInt(shift)) * (negative ? -1 : 1);
  if (typeof amount === 'number' && !onlyAmountOf(amount, minor, exponent))
    throw new RangeError(
      `the amount ${shown(decimal)} is too large to be counted exactly from a JSON number: at this size a number cannot tell one minor unit from the next`,
    );
  return minor;
}

/** Integer minor units to a major-unit number (12345 KWD-fils → 12.345), read from exact decimal text. */
export function toMajorUnits(minor: number, currencyCode: string): number {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not a whole number of minor units`);
  return Number(majorText(BigInt(minor), currencyExponent(currencyCode)));
}

/** The most minor units a number counts exactly: 2^53 − 1 (16 digits). */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER).length;

/**
 * True when `value` is the float of exactly one amount of minor units, `minor`: its neighbours
 * one minor unit away read as other floats. Above about 7e13 USD they need not (a float's step
 * there is 1/64), and the text the platform sent is then lost.
 */
function onlyAmountOf(value: number, minor: number, exponent: number): boolean {
  const at = (m: number) => Number(majorText(BigInt(m), exponent));
  return at(minor) === value && at(minor - 1) !== value && at(minor + 1) !== value;
}

/** An amount read from the platform: integer minor units in an upper-case currency code. */
export interface Money {
  minor: number;
  currency: string;
}

/**
 * Reads any of the three amount forms into minor units. A bare number needs the sibling
 * currency the object carries next to it. Returns null when there is no amount at all, and
 * throws a RangeError (with words a bookkeeper can act on) when the amount cannot be counted.
 */
export function readMoney(raw: unknown, siblingCurrency?: string | null): Money | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'number' || typeof raw === 'string') {
    if (!siblingCurrency) throw new RangeError('the amount has no currency');
    const currency = siblingCurrency.toUpperCase();
    return { minor: toMinorUnits(raw, currencyExponent(currency)), currency };
  }
  if (typeof raw !== 'object') throw new RangeError('the amount is not a number');
  const form = raw as { amount?: unknown; currency_code?: unknown; currency?: unknown; value?: unknown };
  if (form.amount !== undefined && form.amount !== null) {
    const currency = textOr(form.currency_code, siblingCurrency);
    if (!currency) throw new RangeError('the amount has no currency');
    return { minor: wholeMinorUnits(form.amount), currency: currency.toUpperCase() };
  }
  if (form.value !== undefined && form.value !== null) {
    const currency = textOr(form.currency, siblingCurrency);
    if (!currency) throw new RangeError('the amount has no currency');
    return { minor: wholeMinorUnits(form.value), currency: currency.toUpperCase() };
  }
  return null;
}

/**
 * An amount sent in minor units: a whole number of at most 2^53 − 1 (a larger JSON integer is
 * already rounded by the parser: 2^53 + 1 reads as 2^53, so nothing past the bound is exact).
 */
function wholeMinorUnits(raw: unknown): number {
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return raw;
  if (typeof raw === 'number' && Number.isInteger(raw)) {
    const decimal = parseDecimal(String(raw));
    throw new RangeError(
      `the amount ${decimal ? shown(decimal) : String(raw)} (in minor units) is too large to be counted exactly (the most is ${grouped(MAX_SAFE.toString())})`,
    );
  }
  throw new RangeError(`the amount ${String(raw)} is not a whole number of minor units`);
}

/** The currency an amount of any form names itself, if it names one. */
export function currencyOfAmount(raw: unknown): string | null {
  if (!raw || typeof raw !== 'object') return null;
  const form = raw as { currency_code?: unknown; currency?: unknown };
  return textOr(form.currency_code, textOr(form.currency, null));
}

function textOr(value: unknown, fallback: string | null | undefined): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : (fallback ?? null);
}

/** Splits `total` minor units over lines in proportion to `weights`, summing exactly to total. */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (sum === 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const raw = weights.map((w) => Math.trunc((total * w) / sum));
  const remainder = total - raw.reduce((a, b) => a + b, 0);
  raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) + remainder;
  return raw;
}
