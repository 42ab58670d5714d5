import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { canonicalJson } from '../canonical-json.ts';

/**
 * What this client remembers of the idempotency keys it sent (docs/platform.md F15): the hash of
 * the body first sent under a key, and the first 2xx answer once one arrived. A 7005 on a key
 * sent before with the same body then means "already applied", and the answer can be recovered.
 * The sync layer may pass its own implementation (e.g. kept beside its outbox in Postgres).
 */
export interface IdempotencyRecord {
  bodyHash: string;
  /** The parsed JSON of the first 2xx answer; absent while none arrived (or it was lost). */
  response?: unknown;
}

export interface IdempotencyRecords {
  get(key: string): Promise<IdempotencyRecord | null>;
  /** Records that `key` is about to be sent with this body; keeps the first hash of a key. */
  remember(key: string, bodyHash: string): Promise<void>;
  saveResponse(key: string, response: unknown): Promise<void>;
}

/** sha256 of the body as canonical JSON (keys sorted), so key order never changes the hash. */
export function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

export const DEFAULT_IDEMPOTENCY_TTL_DAYS = 7;

/** The default records: one Redis hash per key under the client's prefix, kept for ttlDays. */
export class RedisIdempotencyRecords implements IdempotencyRecords {
  private readonly ttlS: number;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    ttlDays: number = DEFAULT_IDEMPOTENCY_TTL_DAYS,
  ) {
    this.ttlS = Math.max(1, Math.round(ttlDays * 86_400));
  }

  async get(key: string): Promise<IdempotencyRecord | null> {
    const fields = await this.redis.hgetall(this.redisKey(key));
    if (!fields.bodyHash) return null;
    const record: IdempotencyRecord = { bodyHash: fields.bodyHash };
    if (fields.response !== undefined) record.response = JSON.parse(fields.response);
    return record;
  }

  async remember(key: string, hash: string): Promise<void> {
    const redisKey = this.redisKey(key);
    await this.redis.multi().hsetnx(redisKey, 'bodyHash', hash).expire(redisKey, this.ttlS).exec();
  }

  async saveResponse(key: string, response: unknown): Promise<void> {
    const redisKey = this.redisKey(key);
    await this.redis
      .multi()
      .hset(redisKey, 'response', JSON.stringify(response ?? null))
      .expire(redisKey, this.ttlS)
      .exec();
  }

  private redisKey(key: string): string {
    return `${this.keyPrefix}:idempotency:${key}`;
  }
}
