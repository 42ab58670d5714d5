import { z } from 'zod';

/**
 * Tryton's JSON-RPC carries decimals and dates as tagged objects (trytond/protocols/jsonrpc.py):
 * `{"__class__": "Decimal", "decimal": "12.34"}` and `{"__class__": "date", year, month, day}`.
 * Amounts cross this boundary as strings built from integer minor units, never as floats.
 */

export interface TrytonDecimal {
  __class__: 'Decimal';
  decimal: string;
}

export interface TrytonDate {
  __class__: 'date';
  year: number;
  month: number;
  day: number;
}

/** 1234 minor units with exponent 2 → Decimal "12.34"; exact for any safe integer. */
export function decimalFromMinor(amountMinor: number, exponent: number): TrytonDecimal {
  const negative = amountMinor < 0;
  const digits = Math.abs(amountMinor)
    .toString()
    .padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  const text = exponent > 0 ? `${whole}.${fraction}` : whole;
  return { __class__: 'Decimal', decimal: `${negative ? '-' : ''}${text}` };
}

export function decimal(text: string): TrytonDecimal {
  return { __class__: 'Decimal', decimal: text };
}

export function dateOf(iso: string): TrytonDate {
  const [year, month, day] = iso.split('-').map(Number);
  return { __class__: 'date', year: year!, month: month!, day: day! };
}

export const DecimalValue = z
  .object({ __class__: z.literal('Decimal'), decimal: z.string().regex(/^-?\d+(\.\d+)?$/) })
  .transform((d) => d.decimal);

export const DateValue = z
  .object({ __class__: z.literal('date'), year: z.number(), month: z.number(), day: z.number() })
  .transform(
    (d) =>
      `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`,
  );

export const DateTimeValue = z
  .object({
    __class__: z.literal('datetime'),
    year: z.number(),
    month: z.number(),
    day: z.number(),
    hour: z.number(),
    minute: z.number(),
    second: z.number(),
  })
  .transform((d) => new Date(Date.UTC(d.year, d.month - 1, d.day, d.hour, d.minute, d.second)).toISOString());

/** Decimal text → minor units ("12.345", exponent 2 rounds half away from zero). */
export function minorFromDecimal(text: string, exponent: number): number {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const [, sign, whole, fraction = ''] = match;
  const kept = fraction.slice(0, exponent).padEnd(exponent, '0');
  let minor = BigInt(whole!) * 10n ** BigInt(exponent) + BigInt(kept || '0');
  if ((fraction[exponent] ?? '0') >= '5') minor += 1n;
  return Number(sign ? -minor : minor);
}

/** Rate text as the platform wants it: "0.200000" → "0.2", "0E-10" never reaches here. */
export function normaliseRate(text: string): string {
  if (!text.includes('.')) return text;
  const trimmed = text.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}
