/**
 * Splits a tax-inclusive amount into its net part and one part per tax rate, in integer minor
 * units (BigInt, never floats).
 *
 *   net   = round(gross / (1 + sum of rates))
 *   tax_i = round(net * rate_i)
 *   the net line takes gross - sum(tax_i), so the parts always add up to the gross exactly.
 *
 * Reverse charge (+20% and -20% on one code) sums to 0: the net is the gross, and the two tax
 * parts cancel (input VAT debited, output VAT credited). Rounding is half away from zero, so a
 * refund splits as the exact mirror of its purchase.
 */

const SCALE_DIGITS = 6; // tax_rates.rate is numeric(10, 6)
const SCALE = 10n ** BigInt(SCALE_DIGITS);

/** "0.05" → 50000n at scale 10^6; "-0.2" → -200000n. Rejects more than 6 decimals. */
export function parseRate(rate: string): bigint {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(rate.trim());
  if (!match) throw new Error(`not a decimal rate: ${rate}`);
  const [, sign, whole, fraction = ''] = match;
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > SCALE_DIGITS) throw new Error(`rate ${rate} has more than ${SCALE_DIGITS} decimals`);
  const scaled = BigInt(whole!) * SCALE + BigInt(trimmed.padEnd(SCALE_DIGITS, '0') || '0');
  return sign ? -scaled : scaled;
}

/** a / b rounded half away from zero (b > 0). */
function divRound(a: bigint, b: bigint): bigint {
  const negative = a < 0n;
  const abs = negative ? -a : a;
  const q = (abs * 2n + b) / (2n * b);
  return negative ? -q : q;
}

interface TaxPart {
  rateId: string;
  accountId: string;
  amountMinor: number;
}

export interface TaxSplit {
  netMinor: number;
  taxes: TaxPart[];
}

export interface RateForSplit {
  id: string;
  rate: string;
  accountId: string;
}

/** Returns null when the rates add up to -100% or less (no net amount exists). */
export function splitTax(grossMinor: number, rates: readonly RateForSplit[]): TaxSplit | null {
  const scaled = rates.map((r) => ({ ...r, scaled: parseRate(r.rate) }));
  const divisor = SCALE + scaled.reduce((sum, r) => sum + r.scaled, 0n);
  if (divisor <= 0n) return null;
  const gross = BigInt(grossMinor);
  const net = divRound(gross * SCALE, divisor);
  const taxes = scaled.map((r) => ({
    rateId: r.id,
    accountId: r.accountId,
    amountMinor: Number(divRound(net * r.scaled, SCALE)),
  }));
  const taxTotal = taxes.reduce((sum, t) => sum + t.amountMinor, 0);
  return { netMinor: grossMinor - taxTotal, taxes };
}
