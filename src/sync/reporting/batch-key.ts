import { createHash } from 'node:crypto';
import { canonicalJson } from '../../canonical-json.ts';

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
