import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import type { SyncPlatform } from '../../../../src/sync/objects/index.ts';
import {
  freezeAndSend,
  freezeBatch,
  type SyncBody,
  sendFrozen,
} from '../../../../src/sync/reporting/index.ts';
import { lockUnbatchedOutcomes } from '../../../../src/sync/reporting/ledger-batches.ts';
import { claimRows, recordOutcomes } from '../../../../src/sync/sync-ledger/index.ts';
import { useTestDatabase } from '../../../support/db.ts';
import { waitFor } from '../../support.ts';

const db = useTestDatabase();

/** Records every result post and acknowledges it, as the platform would. */
function recordingPlatform(posts: SyncBody[]): SyncPlatform {
  return {
    readyPages: () => ({ async *[Symbol.asyncIterator]() {} }),
    uploadVendors: async () => {},
    codeTransactionVendor: async () => {},
    async postSyncs(body) {
      posts.push(body);
      return {
        kind: 'acknowledged',
        response: { sync_id: `s${posts.length}`, results: [], sync_request_id: null },
      };
    },
  };
}

/** A report context for one connection, and the posts it makes. */
function reportingTo(connectionId: string) {
  const posts: SyncBody[] = [];
  return {
    posts,
    context: { sql: db.sql, platform: recordingPlatform(posts), connectionId, log: silentLogger },
  };
}

async function gather(
  connectionId: string,
  syncType: string,
  count: number,
  syncRequestId?: string,
): Promise<void> {
  const ids = Array.from(
    { length: count },
    (_, i) => `${syncType}-${syncRequestId ?? ''}${String(i).padStart(5, '0')}`,
  );
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
    ids.map((id) => ({ objectId: id, ok: true as const, referenceId: id })),
  );
}

describe('freezing and sending result batches', () => {
  it('F42: a bill recorded with a link to a host without a dot is reported without it; a public link is sent', async () => {
    const { posts, context } = reportingTo('c-links');
    const links: Record<string, string | undefined> = {
      'bill-local': 'http://localhost:8080/ledger/bills/B-1',
      'bill-public': 'https://books.example.com/ledger/bills/B-2',
      'bill-none': undefined,
    };
    const ids = Object.keys(links);
    await claimRows(db.sql, { connectionId: 'c-links', syncType: 'BILL_SYNC', objectIds: ids });
    await recordOutcomes(
      db.sql,
      'c-links',
      'BILL_SYNC',
      ids.map((id) => ({ objectId: id, ok: true as const, referenceId: `R-${id}`, deepLinkUrl: links[id] })),
    );
    await freezeAndSend(context, ['BILL_SYNC']);
    const sent = Object.fromEntries((posts[0]?.successful_syncs ?? []).map((s) => [s.id, s]));
    expect(Object.keys(sent).sort()).toEqual([...ids].sort());
    expect('deep_link_url' in sent['bill-local']!).toBe(false);
    expect('deep_link_url' in sent['bill-none']!).toBe(false);
    expect(sent['bill-public']!.deep_link_url).toBe(links['bill-public']);
  });

  it('F14: mid-run, only whole 5,000-item batches go out; the remainder waits for the end of the run', async () => {
    const { posts, context } = reportingTo('c-full');
    await gather('c-full', 'TRANSACTION_SYNC', 7000);
    await freezeAndSend(context, ['TRANSACTION_SYNC'], { minItems: 5000 });
    expect(posts.map((p) => p.successful_syncs?.length)).toEqual([5000]);
    await freezeAndSend(context, ['TRANSACTION_SYNC']);
    expect(posts.map((p) => p.successful_syncs?.length)).toEqual([5000, 2000]);
  });

  it('F14: a batch due full is frozen full or not at all, while another process freezes from the same outcomes', async () => {
    const { posts, context } = reportingTo('c-shared');
    await gather('c-shared', 'TRANSACTION_SYNC', 7000);
    // Another process is freezing 5,000 of the 7,000 (its transaction holds their rows).
    const scope = { connectionId: 'c-shared', syncType: 'TRANSACTION_SYNC', syncRequestId: null };
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const lockedNow = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const other = db.sql.begin(async (tx) => {
      await lockUnbatchedOutcomes(tx, scope, 5000);
      locked();
      await held;
    });
    await lockedNow;
    // This process counts 7,000 waiting, so a full batch is due; 2,000 are free to freeze.
    await freezeAndSend(context, ['TRANSACTION_SYNC'], { minItems: 5000 });
    release();
    await other;
    expect(posts).toEqual([]);
    await freezeAndSend(context, ['TRANSACTION_SYNC']);
    expect(posts.map((p) => p.successful_syncs?.length)).toEqual([5000, 2000]);
  });

  it('F15: two processes sending the frozen batches at once post each batch once', async () => {
    const posts: SyncBody[] = [];
    const slow: SyncPlatform = {
      ...recordingPlatform(posts),
      async postSyncs(body) {
        // The post takes a while, so the other process lists the batch while it is on its way.
        await new Promise((resolve) => setTimeout(resolve, 100));
        return recordingPlatform(posts).postSyncs(body);
      },
    };
    const context = { sql: db.sql, platform: slow, connectionId: 'c-twice', log: silentLogger };
    await gather('c-twice', 'TRANSACTION_SYNC', 6000);
    // Both processes freeze what waits and send every frozen batch of the connection.
    const counts = await Promise.all([
      freezeAndSend(context, ['TRANSACTION_SYNC']),
      freezeAndSend(context, ['TRANSACTION_SYNC']),
    ]);
    // How the 6,000 split between the two batches depends on which process locks which rows
    // first (freezeBatch skips rows the other is freezing); that each batch is posted once does not.
    const sizes = posts.map((p) => p.successful_syncs?.length ?? 0);
    expect(sizes).toHaveLength(2);
    expect(sizes[0]! + sizes[1]!).toBe(6000);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(5000);
    const ids = posts.flatMap((p) => (p.successful_syncs ?? []).map((s) => s.id));
    expect(new Set(ids).size).toBe(6000);
    expect(new Set(posts.map((p) => p.idempotency_key)).size).toBe(2);
    expect(counts[0]!.batches + counts[1]!.batches).toBe(2);
    const [left] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from result_batches where connection_id = 'c-twice' and state = 'FROZEN'`;
    expect(left?.n).toBe(0);
  });

  it("G28: a bulk run leaves a press's frozen batch to the press; a run's start sends what a crash left", async () => {
    const { posts, context } = reportingTo('c-press');
    await gather('c-press', 'TRANSACTION_SYNC', 30, 'sr-1');
    // The press froze its results and has not posted them yet.
    const press = await freezeBatch(db.sql, {
      connectionId: 'c-press',
      syncType: 'TRANSACTION_SYNC',
      syncRequestId: 'sr-1',
      max: 5000,
    });
    expect(press?.itemCount).toBe(30);
    await gather('c-press', 'TRANSACTION_SYNC', 200);
    await freezeAndSend(context, ['TRANSACTION_SYNC']);
    expect(posts.map((p) => [p.sync_request_id ?? null, p.successful_syncs?.length])).toEqual([[null, 200]]);
    // Left behind (the press's run died): the next run's start sends it.
    await sendFrozen(context, { syncTypes: ['TRANSACTION_SYNC'] });
    expect(posts.map((p) => [p.sync_request_id ?? null, p.successful_syncs?.length])).toEqual([
      [null, 200],
      ['sr-1', 30],
    ]);
  });

  /** Holds a row of a batch's ledger rows, so acknowledging that batch waits until `release`. */
  async function holdAcknowledgement(batchId: string) {
    const holder = await db.sql.reserve();
    await holder`begin`;
    await holder`select 1 from sync_ledger where batch_id = ${batchId} limit 1 for update`;
    return async () => {
      await holder`rollback`;
      holder.release();
    };
  }

  const batchState = async (id: string) =>
    (await db.sql<{ state: string }[]>`select state from result_batches where id = ${id}`)[0]?.state;

  it('F14: within one sync type, the next batch is posted while the one before it is acknowledged', async () => {
    const { posts, context } = reportingTo('c-overlap');
    await gather('c-overlap', 'TRANSACTION_SYNC', 7000);
    const scope = { connectionId: 'c-overlap', syncType: 'TRANSACTION_SYNC', max: 5000 };
    const first = (await freezeBatch(db.sql, scope))!;
    const second = (await freezeBatch(db.sql, scope))!;
    const release = await holdAcknowledgement(first.id);
    let sending: Promise<unknown> | undefined;
    try {
      sending = sendFrozen(context, { syncTypes: ['TRANSACTION_SYNC'] });
      await waitFor(() => posts.length === 2, { what: 'the second post', timeoutMs: 10_000 });
      // The first was answered and is still being acknowledged when the second goes.
      expect(await batchState(first.id)).toBe('FROZEN');
    } finally {
      await release();
    }
    expect(await sending).toEqual({ batches: 2, items: 7000, rejected: 0 });
    expect(posts.map((p) => p.idempotency_key)).toEqual([first.idempotencyKey, second.idempotencyKey]);
    expect([await batchState(first.id), await batchState(second.id)]).toEqual(['ACKED', 'ACKED']);
  });

  it('G23: a bill payment batch is not posted until the bills batch before it is acknowledged', async () => {
    const { posts, context } = reportingTo('c-g23');
    await gather('c-g23', 'BILL_SYNC', 10);
    await gather('c-g23', 'BILL_PAYMENT_SYNC', 10);
    const bills = (await freezeBatch(db.sql, { connectionId: 'c-g23', syncType: 'BILL_SYNC' }))!;
    await freezeBatch(db.sql, { connectionId: 'c-g23', syncType: 'BILL_PAYMENT_SYNC' });
    const release = await holdAcknowledgement(bills.id);
    let sending: Promise<unknown> | undefined;
    try {
      sending = sendFrozen(context, { syncTypes: ['BILL_SYNC', 'BILL_PAYMENT_SYNC'] });
      await waitFor(() => posts.length === 1, { what: 'the bills post', timeoutMs: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(posts.map((p) => p.sync_type)).toEqual(['BILL_SYNC']);
    } finally {
      await release();
    }
    await sending;
    expect(posts.map((p) => p.sync_type)).toEqual(['BILL_SYNC', 'BILL_PAYMENT_SYNC']);
  });

  it('decision table: when payments are due, waiting bills are flushed and sent before them', async () => {
    const { posts, context } = reportingTo('c-bills');
    await gather('c-bills', 'BILL_SYNC', 10);
    await gather('c-bills', 'BILL_PAYMENT_SYNC', 5000);
    await freezeAndSend(context, ['BILL_SYNC', 'BILL_PAYMENT_SYNC'], { minItems: 5000 });
    expect(posts.map((p) => [p.sync_type, p.successful_syncs?.length])).toEqual([
      ['BILL_SYNC', 10],
      ['BILL_PAYMENT_SYNC', 5000],
    ]);
  });
});
