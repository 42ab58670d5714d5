import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import type { SyncPlatform } from '../../../../src/sync/objects/index.ts';
import {
  BatchStillLeasedError,
  freezeAndSend,
  freezeBatch,
  type PostOutcome,
  type SyncBody,
  sendFrozen,
} from '../../../../src/sync/reporting/index.ts';
import { claimRows, recordOutcomes } from '../../../../src/sync/sync-ledger/index.ts';
import { useTestDatabase } from '../../../support/db.ts';

/**
 * Result batches are sent under a lease on their row (src/sync/reporting/batch-lease.ts): no sender
 * holds a transaction or a lock across the post, a sender that stopped holds its batch up for one
 * lease, and a sync-button press never waits behind a batch another sender holds.
 */
const db = useTestDatabase();

/** Short leases, so a lapse takes a fraction of a second. */
const SHORT = { leaseMs: 400, pollMs: 40, maxWaitMs: 10_000 };

/**
 * Acknowledges every post, applying a key once as the platform does (docs/platform.md F15: a
 * second post of a key is answered with the first answer and applies nothing). `hold` keeps a
 * post on its way until the test lets it go.
 */
function platformOf(
  applied: Map<string, number>,
  posts: SyncBody[],
  hold?: (body: SyncBody) => Promise<void>,
) {
  const platform: SyncPlatform = {
    readyPages: () => ({ async *[Symbol.asyncIterator]() {} }),
    uploadVendors: async () => {},
    codeTransactionVendor: async () => {},
    async postSyncs(body): Promise<PostOutcome> {
      posts.push(body);
      await hold?.(body);
      applied.set(body.idempotency_key, applied.get(body.idempotency_key) ?? 1);
      return {
        kind: 'acknowledged',
        response: { sync_id: body.idempotency_key, results: [], sync_request_id: null },
      };
    },
  };
  return platform;
}

async function gather(connectionId: string, syncType: string, ids: string[], syncRequestId?: string) {
  await claimRows(db.sql, {
    connectionId,
    syncType,
    objectIds: ids,
    ...(syncRequestId ? { syncRequestId } : {}),
  });
  await recordOutcomes(
    db.sql,
    connectionId,
    syncType,
    ids.map((id) => ({ objectId: id, ok: true as const, referenceId: `R-${id}` })),
  );
}

async function freeze(connectionId: string, syncType: string, ids: string[], syncRequestId?: string) {
  await gather(connectionId, syncType, ids, syncRequestId);
  const batch = await freezeBatch(db.sql, { connectionId, syncType, syncRequestId: syncRequestId ?? null });
  if (!batch) throw new Error('nothing frozen');
  return batch;
}

/** Another process claims the batch, as sendUnderLease does, and then stops: it never sends. */
async function leaseToStoppedSender(batchId: string, leaseMs: number): Promise<void> {
  await db.sql`
    update result_batches set lease_owner = 'stopped-host:4242:aaaaaa',
           lease_until = now() + make_interval(secs => ${leaseMs / 1000})
     where id = ${batchId}`;
}

async function batchRow(batchId: string) {
  const [row] = await db.sql<{ state: string; lease_owner: string | null; lease_until: Date | null }[]>`
    select state, lease_owner, lease_until from result_batches where id = ${batchId}`;
  return row;
}

describe('result batches sent under a lease', () => {
  it('F15: a batch whose sender stopped is taken over once its lease lapses, and posted once', async () => {
    const batch = await freeze('c-lapse', 'TRANSACTION_SYNC', ['t1', 't2', 't3']);
    await leaseToStoppedSender(batch.id, SHORT.leaseMs);
    const applied = new Map<string, number>();
    const posts: SyncBody[] = [];
    const ownersAtPost: (string | null)[] = [];
    const platform = platformOf(applied, posts, async () => {
      ownersAtPost.push((await batchRow(batch.id))?.lease_owner ?? null);
    });
    const context = { sql: db.sql, platform, connectionId: 'c-lapse', log: silentLogger, lease: SHORT };
    const counts = await sendFrozen(context, { syncTypes: ['TRANSACTION_SYNC'] });
    expect(counts.batches).toBe(1);
    expect(posts.map((p) => p.idempotency_key)).toEqual([batch.idempotencyKey]);
    expect(applied.get(batch.idempotencyKey)).toBe(1);
    // Posted under this sender's own lease, taken over from the stopped one, not beside it.
    expect(ownersAtPost).toHaveLength(1);
    expect(ownersAtPost[0]).not.toBe('stopped-host:4242:aaaaaa');
    expect(ownersAtPost[0]).not.toBeNull();
    expect(await batchRow(batch.id)).toEqual({ state: 'ACKED', lease_owner: null, lease_until: null });
  });

  it('a sender waits for a leased batch within a bound: past it the batch stays frozen and unsent', async () => {
    const batch = await freeze('c-bound', 'TRANSACTION_SYNC', ['b1']);
    await leaseToStoppedSender(batch.id, 3_600_000);
    const posts: SyncBody[] = [];
    const context = {
      sql: db.sql,
      platform: platformOf(new Map(), posts),
      connectionId: 'c-bound',
      log: silentLogger,
      lease: { ...SHORT, maxWaitMs: 200 },
    };
    await expect(sendFrozen(context, { syncTypes: ['TRANSACTION_SYNC'] })).rejects.toBeInstanceOf(
      BatchStillLeasedError,
    );
    expect(posts).toEqual([]);
    expect((await batchRow(batch.id))?.state).toBe('FROZEN');
  });

  it('a sender holds no transaction and no lock while its post is on its way; a press is sent beside it and skips it', async () => {
    const bulk = await freeze('c-free', 'TRANSACTION_SYNC', ['f1', 'f2']);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let onItsWay!: () => void;
    const posting = new Promise<void>((resolve) => {
      onItsWay = resolve;
    });
    const applied = new Map<string, number>();
    const posts: SyncBody[] = [];
    const slow = platformOf(applied, posts, async (body) => {
      if (body.idempotency_key !== bulk.idempotencyKey) return;
      onItsWay();
      await released;
    });
    // The sender's own sessions, named so the check below sees them and no other test file's.
    const name = `lease-sender-${db.schema}`;
    const senderSql = postgres(db.url, {
      max: 4,
      onnotice: () => {},
      connection: { search_path: db.schema, application_name: name },
    });
    const context = {
      sql: senderSql,
      platform: slow,
      connectionId: 'c-free',
      log: silentLogger,
      lease: SHORT,
    };
    const bulkSend = sendFrozen(context, { syncTypes: ['TRANSACTION_SYNC'] });
    await posting;
    try {
      const held = await db.sql<{ locktype: string; state: string }[]>`
        select l.locktype, a.state from pg_locks l join pg_stat_activity a on a.pid = l.pid
         where a.application_name = ${name} and l.locktype = 'advisory'`;
      expect(held).toEqual([]);
      const open = await db.sql<{ state: string }[]>`
        select state from pg_stat_activity where application_name = ${name} and xact_start is not null`;
      expect(open).toEqual([]);
      // A press of another row: its run's start skips the bulk batch on its way, and its own
      // batch is frozen and sent by another sender while the bulk post is still held.
      await gather('c-free', 'TRANSACTION_SYNC', ['p1'], 'sr-free');
      const press = await sendFrozen(context, { syncTypes: ['TRANSACTION_SYNC'], whenLeased: 'skip' });
      expect(press.batches).toBe(0);
      const own = await freezeAndSend(context, ['TRANSACTION_SYNC'], { syncRequestId: 'sr-free' });
      expect(own).toMatchObject({ batches: 1, items: 1 });
      expect(posts.map((p) => p.sync_request_id ?? null)).toEqual([null, 'sr-free']);
    } finally {
      release();
    }
    expect(await bulkSend).toMatchObject({ batches: 1, items: 2 });
    await senderSql.end();
    expect(applied.get(bulk.idempotencyKey)).toBe(1);
  });

  it('G23: a press that skips a leased bill batch sends no bill payment after it', async () => {
    const bills = await freeze('c-order', 'BILL_SYNC', ['bill-1']);
    const payments = await freeze('c-order', 'BILL_PAYMENT_SYNC', ['pay-1']);
    await leaseToStoppedSender(bills.id, 3_600_000);
    const posts: SyncBody[] = [];
    const context = {
      sql: db.sql,
      platform: platformOf(new Map(), posts),
      connectionId: 'c-order',
      log: silentLogger,
      lease: SHORT,
    };
    const counts = await sendFrozen(context, { whenLeased: 'skip' });
    expect(counts.batches).toBe(0);
    expect(posts).toEqual([]);
    expect((await batchRow(payments.id))?.state).toBe('FROZEN');
  });

  it('a failed post releases its lease, so the next sender need not wait for it to lapse', async () => {
    const batch = await freeze('c-fail', 'TRANSACTION_SYNC', ['x1']);
    const failing: SyncPlatform = {
      ...platformOf(new Map(), []),
      postSyncs: async () => {
        throw new Error('platform unavailable');
      },
    };
    const context = { sql: db.sql, platform: failing, connectionId: 'c-fail', log: silentLogger };
    await expect(sendFrozen(context)).rejects.toThrow('platform unavailable');
    const [row] = await db.sql<{ state: string; lease_owner: string | null; attempts: number }[]>`
      select state, lease_owner, attempts from result_batches where id = ${batch.id}`;
    expect(row).toEqual({ state: 'FROZEN', lease_owner: null, attempts: 1 });
  });
});
