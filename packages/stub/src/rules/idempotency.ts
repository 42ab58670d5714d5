import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../../src/canonical-json.ts';
import { ApiError } from '../core/errors.ts';

/**
 * docs/platform.md F15: a sync's idempotency key. Same key + same body replays the first answer
 * (201, same sync_id, no second effect); same key + different body is 400 DEVELOPER_7005. The live
 * service also answers 7005 to an identical retry: mode `error_7005` reproduces that.
 */
export type ReplayMode = 'replay' | 'error_7005';

interface StoredAnswer {
  bodyHash: string;
  status: number;
  body: unknown;
}

export class IdempotencyStore {
  private readonly answers = new Map<string, StoredAnswer>();

  /** The stored answer to replay, or null when the key is new; throws 7005 per F15. */
  lookup(key: string, body: unknown, mode: ReplayMode): { status: number; body: unknown } | null {
    const stored = this.answers.get(key);
    if (!stored) return null;
    if (stored.bodyHash !== hashBody(body)) {
      throw new ApiError('DEVELOPER_7005', 'idempotency key already used with a different body', {
        idempotency_key: key,
      });
    }
    if (mode === 'error_7005') {
      throw new ApiError('DEVELOPER_7005', 'idempotency key already used', { idempotency_key: key });
    }
    return { status: stored.status, body: stored.body };
  }

  remember(key: string, body: unknown, status: number, answer: unknown): void {
    this.answers.set(key, { bodyHash: hashBody(body), status, body: answer });
  }

  get size(): number {
    return this.answers.size;
  }

  reset(): void {
    this.answers.clear();
  }
}

/** Hash of the body with keys sorted, so key order and whitespace do not make a "different body". */
function hashBody(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
