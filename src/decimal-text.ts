/**
 * Decimal text read and written exactly, with integer arithmetic only: never through a float,
 * whose formatting switches to exponent notation from 1e21 up and rounds past 15 digits. Used by
 * src/money.ts, which owns what an amount is.
 */

/** A decimal read exactly: value = ±digits × 10^power, digits without leading or trailing zeros. */
export interface Decimal {
  negative: boolean;
  /** '' for zero. */
  digits: string;
  power: number;
}

const DECIMAL_TEXT = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,6}))?$/;

export function parseDecimal(text: string): Decimal | null {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return null;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return null;
  const all = `${whole}${fraction}`.replace(/^0+/, '');
  const digits = all.replace(/0+$/, '');
  const power = Number(exponent) - fraction.length + (all.length - digits.length);
  return { negative: sign === '-', digits, power };
}

/** Exact decimal text of `minor` minor units: majorText(-5n, 2) is "-0.05". */
export function majorText(minor: bigint, exponent: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${negative ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

/** The amount as a bookkeeper reads it: grouped digits, unless it is very long. */
export function shown(decimal: Decimal): string {
  const sign = decimal.negative ? '-' : '';
  const { digits, power } = decimal;
  if (power >= 0 && digits.length + power <= 40) return grouped(`${sign}${digits}${'0'.repeat(power)}`);
  if (power < 0 && -power <= 40) {
    const padded = digits.padStart(-power + 1, '0');
    return grouped(`${sign}${padded.slice(0, padded.length + power)}.${padded.slice(padded.length + power)}`);
  }
  return `${sign}${digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits}e${power + digits.length - 1}`;
}

/** Thousands separators in the whole part: "1234567.5" is "1,234,567.5". */
export function grouped(text: string): string {
  const [whole = '', fraction] = text.split('.');
  const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}
