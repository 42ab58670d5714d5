/**
 * Minor-unit rules (spec 000: amounts in the lowest denomination of the currency). ISO 4217
 * exponents that are not 2; stablecoin codes are counted in cents like the dollar they track.
 */
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

export function currencyExponent(code: string): number {
  return EXPONENTS[code.toUpperCase()] ?? 2;
}

/**
 * Major units (a JSON number such as 12.34) to integer minor units, through the decimal string so
 * binary floating point never shifts a cent: 0.1 + 0.2 style errors stop here.
 */
export function toMinorUnits(amount: number, exponent: number): number {
  if (!Number.isFinite(amount)) throw new RangeError(`amount ${amount} is not a finite number`);
  const fixed = Math.abs(amount).toFixed(exponent);
  const digits = fixed.replace('.', '');
  const minor = Number.parseInt(digits, 10);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount ${amount} is too large to count exactly`);
  return amount < 0 ? -minor : minor;
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
