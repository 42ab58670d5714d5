/**
 * Ids of generated objects: uuid-shaped, sortable, and decodable back to an index without a map:
 * `PPPPPPPP-TTTT-4000-8000-IIIIIIIIIIII` (P = world prefix from the seed, T = kind code,
 * I = index, all hex). Sorting ids sorts indexes, so a page cursor (F4) is an index seek.
 */

export const OBJECT_KINDS = ['transaction', 'reimbursement', 'transfer', 'cashback', 'bill'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

/** Kind codes; the other generated records (entities, users, cards...) take codes above 0x10. */
export const KIND_CODE: Record<ObjectKind, number> = {
  transaction: 1,
  reimbursement: 2,
  transfer: 3,
  cashback: 4,
  bill: 5,
};

export const AUX_CODE = {
  entity: 0x11,
  vendor: 0x12,
  user: 0x13,
  card: 0x14,
  merchant: 0x15,
  account: 0x16,
  payment: 0x17,
  business: 0x18,
  fund: 0x19,
  trip: 0x1a,
  location: 0x1b,
  vendor_account: 0x1c,
  transfer_payment: 0x1d,
  provider_account: 0x1e,
  department: 0x1f,
} as const;

export function makeId(prefix: string, code: number, index: number): string {
  return `${prefix}-${code.toString(16).padStart(4, '0')}-4000-8000-${index.toString(16).padStart(12, '0')}`;
}

const ID_PATTERN = /^([0-9a-f]{8})-([0-9a-f]{4})-4000-8000-([0-9a-f]{12})$/;

export function parseId(id: string): { prefix: string; code: number; index: number } | null {
  const m = ID_PATTERN.exec(id);
  if (!m) return null;
  return { prefix: m[1]!, code: Number.parseInt(m[2]!, 16), index: Number.parseInt(m[3]!, 16) };
}

export function prefixForSeed(seedInt: number): string {
  return (seedInt >>> 0).toString(16).padStart(8, '0');
}

/** Accepts `transactions`, `transaction`, `TRANSACTION`, `TRANSACTION_SYNC`-less kinds. */
export function normalizeKind(value: string): ObjectKind | null {
  const v = value.toLowerCase().replace(/s$/, '');
  if (v === 'statement_credit') return 'cashback';
  return (OBJECT_KINDS as readonly string[]).includes(v) ? (v as ObjectKind) : null;
}

/** Plural path segment of a kind: `/transactions`, `/bills`. */
export function kindPath(kind: ObjectKind): string {
  return `${kind}s`;
}
