import type { Currency } from './types.ts';

/**
 * Minor units as a bookkeeper reads them: formatMinor(-123456, USD) is "-1,234.56 USD".
 * Integer arithmetic only, so no float ever rounds an amount shown in a message.
 */
export function formatMinor(amountMinor: number, currency: Currency): string {
  return `${formatAmount(amountMinor, currency.exponent)} ${currency.code}`;
}

/**
 * The number alone, grouped: formatAmount(-123456, 2) is "-1,234.56". The digits come from a
 * BigInt, so even an integer past 1e21 (where a number's text turns to "1e+21") shows every digit.
 */
export function formatAmount(amountMinor: number, exponent: number): string {
  const negative = amountMinor < 0;
  const magnitude = Math.abs(amountMinor);
  const digits = (Number.isInteger(magnitude) ? BigInt(magnitude).toString() : String(magnitude)).padStart(
    exponent + 1,
    '0',
  );
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const text = exponent > 0 ? `${grouped}.${fraction}` : grouped;
  return `${negative ? '-' : ''}${text}`;
}
