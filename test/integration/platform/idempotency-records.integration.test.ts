import { describe, expect, it } from 'vitest';
import { RedisIdempotencyRecords } from '../../../src/platform/idempotency.ts';
import { useTestRedis } from '../../support/redis.ts';

const redis = useTestRedis();

describe('RedisIdempotencyRecords (docs/platform.md F15)', () => {
  it('keeps the first body hash of a key and its answer, under the prefix, with a TTL', async () => {
    const connection = redis.connect();
    const records = new RedisIdempotencyRecords(connection, redis.prefix, 2);
    expect(await records.get('k')).toBeNull();
    await records.remember('k', 'hash-1');
    await records.remember('k', 'hash-2');
    expect(await records.get('k')).toEqual({ bodyHash: 'hash-1' });
    await records.saveResponse('k', { sync_id: 's', results: [] });
    expect(await records.get('k')).toEqual({ bodyHash: 'hash-1', response: { sync_id: 's', results: [] } });
    const ttl = await connection.ttl(`${redis.prefix}:idempotency:k`);
    expect(ttl).toBeGreaterThan(86_400);
    expect(ttl).toBeLessThanOrEqual(2 * 86_400);
  });
});
