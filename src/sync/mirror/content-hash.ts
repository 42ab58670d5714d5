import { createHash } from 'node:crypto';

/**
 * Hash of an item's mirrored content (what a PATCH can change), as canonical JSON with sorted
 * keys: the same content hashes the same whether it came from the ERP or from the platform's
 * answer, so adopted items compare against the ERP like recorded ones.
 */
export function contentHash(content: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 32);
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
