import { createHash } from 'node:crypto';
import { canonicalJson } from '../../canonical-json.ts';

/**
 * Hash of an item's mirrored content (what a PATCH can change), as canonical JSON with sorted
 * keys: the same content hashes the same whether it came from the ERP or from the platform's
 * answer, so adopted items compare against the ERP like recorded ones.
 */
export function contentHash(content: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 32);
}
