import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal bodies hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The idempotency key of a frozen result batch: a hash of the connection, the batch's own id and
 * its body. Derived from business ids, never random, so a retry after a crash sends the same key
 * with the same body (docs/platform.md F15); the batch id keeps a later, identical-looking report
 * (an object re-opened on the platform) from replaying an old answer.
 */
export function batchIdempotencyKey(connectionId: string, batchId: string | number, body: unknown): string {
  const digest = createHash('sha256')
    .update(`${connectionId}\u0000${batchId}\u0000${canonicalJson(body)}`)
    .digest('hex');
  return `ls1-${digest.slice(0, 48)}`;
}
