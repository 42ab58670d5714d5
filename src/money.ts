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
 * Major units (a JSON number such as 12.34, or a decimal string) to integer minor units, through
 * the decimal text so binary floating point never shifts a cent: 0.1 + 0.2 style errors stop here.
 */
export function toMinorUnits(amount: number | string, exponent: number): number {
  const value = typeof amount === 'string' ? Number(amount.trim()) : amount;
  if (typeof amount === 'string' && amount.trim() === '') throw new RangeError('amount is empty');
  if (!Number.isFinite(value)) throw new RangeError(`amount ${amount} is not a finite number`);
  const fixed = Math.abs(value).toFixed(exponent);
  const minor = Number.parseInt(fixed.replace('.', ''), 10);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount ${amount} is too large to count exactly`);
  return value < 0 ? -minor : minor;
}

/** Integer minor units to a major-unit number (12345 KWD-fils → 12.345). */
export function toMajorUnits(minor: number, currencyCode: string): number {
  const exponent = currencyExponent(currencyCode);
  return Number((minor / 10 ** exponent).toFixed(exponent));
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
    if (typeof form.amount !== 'number' || !Number.isSafeInteger(form.amount))
      throw new RangeError(`the amount ${String(form.amount)} is not a whole number of minor units`);
    return { minor: form.amount, currency: currency.toUpperCase() };
  }
  if (form.value !== undefined && form.value !== null) {
    const currency = textOr(form.currency, siblingCurrency);
    if (!currency) throw new RangeError('the amount has no currency');
    if (typeof form.value !== 'number' || !Number.isSafeInteger(form.value))
      throw new RangeError(`the amount ${String(form.value)} is not a whole number of minor units`);
    return { minor: form.value, currency: currency.toUpperCase() };
  }
  return null;
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
