import { describe, expect, it } from 'vitest';
import { sendIdempotent } from '../../../../src/platform/index.ts';
import { OutboxIdempotencyRecords } from '../../../../src/sync/reporting/index.ts';
import { useTestDatabase } from '../../../support/db.ts';

const db = useTestDatabase();
const PLATFORM = 'http://127.0.0.1:4010/developer/v1';

describe('idempotency records kept with the outbox (docs/platform.md F15)', () => {
  it('F15: keeps the first body hash of a key and its answer', async () => {
    const records = new OutboxIdempotencyRecords(db.sql, PLATFORM);
    expect(await records.get('k1')).toBeNull();
    await records.remember('k1', 'hash-1');
    await records.remember('k1', 'hash-2');
    expect(await records.get('k1')).toEqual({ bodyHash: 'hash-1' });
    await records.saveResponse('k1', { sync_id: 's', results: [] });
    expect(await records.get('k1')).toEqual({ bodyHash: 'hash-1', response: { sync_id: 's', results: [] } });
    await records.remember('k2', 'h');
    await records.saveResponse('k2', null);
    expect(await records.get('k2')).toEqual({ bodyHash: 'h', response: null });
  });

  it('F15: another platform has no record of what was sent to this one', async () => {
    await new OutboxIdempotencyRecords(db.sql, PLATFORM).remember('k3', 'h');
    expect(await new OutboxIdempotencyRecords(db.sql, 'http://other:1/developer/v1').get('k3')).toBeNull();
  });

  it('F15: a key answered in an earlier world is sent again when this database never sent it', async () => {
    const earlier = new OutboxIdempotencyRecords(db.sql, PLATFORM);
    const request = { method: 'POST' as const, path: '/accounting/syncs', body: { idempotency_key: 'k4' } };
    let posts = 0;
    const send = async () => {
      posts++;
      return { status: 201, body: { sync_id: `s${posts}` }, traceId: null };
    };
    await sendIdempotent(send as never, earlier, 'k4', request);
    // The same key again from this database: the recorded answer, no second post.
    expect(await sendIdempotent(send as never, earlier, 'k4', request)).toMatchObject({
      alreadyApplied: true,
    });
    expect(posts).toBe(1);
    // The same key from a database that never sent it (another platform's records here): posted.
    const other = new OutboxIdempotencyRecords(db.sql, 'http://127.0.0.1:4011/developer/v1');
    expect(await sendIdempotent(send as never, other, 'k4', request)).toMatchObject({
      alreadyApplied: false,
    });
    expect(posts).toBe(2);
  });
});
