import type { Sql } from 'postgres';
import {
  DEFAULT_IDEMPOTENCY_TTL_DAYS,
  type IdempotencyRecord,
  type IdempotencyRecords,
} from '../../platform/index.ts';

const PRUNE_EVERY_MS = 3_600_000;

/**
 * The platform client's idempotency records (docs/platform.md F15) kept in the worker's database,
 * beside the outbox whose batches they describe. A record says "this database sent this body
 * under this key to this platform": a fresh database, or another platform (its base URL is part
 * of the key), has none, so a batch is reported as sent only when this database sent it.
 */
export class OutboxIdempotencyRecords implements IdempotencyRecords {
  private readonly platform: string;
  private readonly ttlDays: number;
  private prunedAt = 0;

  constructor(
    private readonly sql: Sql,
    platformBaseUrl: string,
    ttlDays: number = DEFAULT_IDEMPOTENCY_TTL_DAYS,
  ) {
    this.platform = new URL(platformBaseUrl).href.replace(/\/+$/, '');
    this.ttlDays = ttlDays;
  }

  async get(key: string): Promise<IdempotencyRecord | null> {
    const [row] = await this.sql<{ body_hash: string; answer: { body: unknown } | null }[]>`
      select body_hash, answer from platform_idempotency where platform = ${this.platform} and key = ${key}`;
    if (!row) return null;
    return row.answer === null
      ? { bodyHash: row.body_hash }
      : { bodyHash: row.body_hash, response: row.answer.body };
  }

  async remember(key: string, bodyHash: string): Promise<void> {
    await this.prune();
    await this.sql`
      insert into platform_idempotency (platform, key, body_hash) values (${this.platform}, ${key}, ${bodyHash})
      on conflict (platform, key) do nothing`;
  }

  async saveResponse(key: string, response: unknown): Promise<void> {
    const answer = this.sql.json({ body: response ?? null } as never);
    await this.sql`
      update platform_idempotency set answer = ${answer} where platform = ${this.platform} and key = ${key}`;
  }

  /** Records older than the TTL go, as the platform forgets its keys (F15); hourly at most. */
  private async prune(): Promise<void> {
    if (Date.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = Date.now();
    await this.sql`
      delete from platform_idempotency where sent_at < now() - make_interval(days => ${this.ttlDays})`;
  }
}
