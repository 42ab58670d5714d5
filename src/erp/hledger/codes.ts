import type { HlAmount } from './client.ts';

/**
 * How the sync's objects are named in a journal: each transaction it writes carries the code
 * `ls:<kind>:<object id>` (hledger's `(code)` after the date), which is what idempotency looks
 * up and what the platform gets as the reference id. Ids are percent-encoded so that no
 * character ends the code or a tag value early (`)`, `,`, spaces, newlines).
 */

const encodeId = (objectId: string) =>
  encodeURIComponent(objectId).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function objectCode(kind: string, objectId: string): string {
  return `ls:${kind}:${encodeId(objectId)}`;
}

/** A bill's object id as a payment's `ls-pays:` tag carries it. */
export const billTag = encodeId;

export function decodeId(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** An hledger amount in minor units of a currency with `exponent` decimals. */
export function minorOf(amount: HlAmount, exponent: number): number {
  const { decimalMantissa, decimalPlaces } = amount.aquantity;
  const shift = exponent - decimalPlaces;
  return shift >= 0 ? decimalMantissa * 10 ** shift : Math.round(decimalMantissa / 10 ** -shift);
}
