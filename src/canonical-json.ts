/**
 * JSON with object keys sorted at every depth and undefined members left out, so two values
 * that mean the same serialise to the same text: the basis of idempotency body hashes, result
 * batch keys and chart content hashes. Undefined, where JSON has no place for it (the whole
 * value, an array item), is written as null, as JSON.stringify writes array items.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
