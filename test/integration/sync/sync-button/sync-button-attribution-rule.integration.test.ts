import { describe, expect, it } from 'vitest';
import { ackBatch, freezeBatch } from '../../../../src/sync/reporting/index.ts';
import {
  type AttributionScope,
  databaseTime,
  hasUnansweredRows,
  ownedRows,
  recordRequestedRead,
} from '../../../../src/sync/sync-button/attribute-rows.ts';
import { closeSyncRequest, recordSyncRequest } from '../../../../src/sync/sync-button/requests.ts';
import { SYNC_WINDOW_MS } from '../../../../src/sync/sync-button/window.ts';
import { claimRows, recordOutcomes } from '../../../../src/sync/sync-ledger/index.ts';
import { useTestDatabase } from '../../../support/db.ts';

/**
 * The attribution rule on its own (docs/decisions.md "Sync-button rows are attributed to
 * requests from what the platform shows"), with the times of presses and reads set by the test:
 * a read with requested_to_sync=true (docs/platform.md F16) lists the rows of every open request
 * together; presses carry their time (F21, G28); the 5-minute window is G29.
 */
const db = useTestDatabase();
let n = 0;

interface World {
  scope: AttributionScope;
  /** Milliseconds from the start of the case to a Date, near the database's clock. */
  at(ms: number): Date;
  /** Records a press named `id` (unique per case) at `atMs`. */
  press(id: string, atMs: number): Promise<void>;
  read(ids: string[], fromMs: number, toMs: number): Promise<void>;
  owned(id: string): Promise<string[]>;
}

async function world(): Promise<World> {
  const scope: AttributionScope = { connectionId: `conn-${++n}`, objectType: 'TRANSACTION' };
  // A minute in the past: answers posted now (frozen and acknowledged by the database's clock)
  // come after every read of the case, as they would in a run.
  const origin = (await databaseTime(db.sql)).getTime() - 60_000;
  const at = (ms: number) => new Date(origin + ms);
  return {
    scope,
    at,
    async press(id, atMs) {
      await recordSyncRequest(db.sql, {
        syncRequestId: `${scope.connectionId}:${id}`,
        connectionId: scope.connectionId,
        objectType: 'TRANSACTION',
        requestedAt: at(atMs),
        deadline: at(atMs + SYNC_WINDOW_MS),
      });
    },
    async read(ids, fromMs, toMs) {
      await recordRequestedRead(db.sql, scope, {
        objectIds: ids,
        startedAt: at(fromMs),
        finishedAt: at(toMs),
      });
    },
    owned: (id) => ownedRows(db.sql, scope, `${scope.connectionId}:${id}`),
  };
}

/** Freezes results for these rows the way a run does: claim, record, freeze. */
async function freeze(scope: AttributionScope, ids: string[], request: string) {
  const syncRequestId = `${scope.connectionId}:${request}`;
  const base = { connectionId: scope.connectionId, syncType: 'TRANSACTION_SYNC', syncRequestId };
  await claimRows(db.sql, { ...base, objectIds: ids });
  await recordOutcomes(
    db.sql,
    scope.connectionId,
    'TRANSACTION_SYNC',
    ids.map((objectId) => ({ objectId, ok: false, category: 'transient', message: 'Temporary problem: x.' })),
  );
  const batch = await freezeBatch(db.sql, base);
  const [row] = await db.sql<
    { created_at: Date }[]
  >`select created_at from result_batches where id = ${batch!.id}`;
  return { id: batch!.id, ids, frozenAt: row!.created_at };
}

/** The platform acknowledged the batch: each row FAILED, as posted. */
async function acknowledge(batch: { id: string; ids: string[] }) {
  await ackBatch(db.sql, batch.id, {
    syncId: 'sync-1',
    response: { sync_id: 'sync-1', results: batch.ids.map((id) => ({ id, status: 'FAILED' })) },
  });
}

async function answer(scope: AttributionScope, ids: string[], request: string) {
  await acknowledge(await freeze(scope, ids, request));
}

/** Milliseconds from the case's origin to the database's clock now. */
async function nowMs(w: World): Promise<number> {
  return (await databaseTime(db.sql)).getTime() - w.at(0).getTime();
}

describe('sync-button attribution rule', () => {
  it('docs/platform.md G28: rows first listed after a later press, and absent from the read before it, are that press’s', async () => {
    const w = await world();
    await w.press('A', 0);
    await w.read(['a1', 'a2'], 100, 200);
    await w.press('B', 1_000);
    await w.read(['a1', 'a2', 'b1', 'b2'], 1_100, 1_200);
    await w.press('C', 2_000);
    await w.read(['a1', 'a2', 'b1', 'b2', 'c1'], 2_100, 2_200);
    expect(await w.owned('A')).toEqual(['a1', 'a2']);
    expect(await w.owned('B')).toEqual(['b1', 'b2']);
    expect(await w.owned('C')).toEqual(['c1']);
  });

  it('a row of a press whose event has not arrived belongs to no known request until it does', async () => {
    const w = await world();
    await w.press('A', 0);
    await w.read(['a1'], 100, 200);
    // B was pressed at 1,000; its event is late: the read lists b1 and nothing explains it yet.
    await w.read(['a1', 'b1'], 1_100, 1_200);
    expect(await w.owned('A')).toEqual(['a1']);
    await w.press('B', 1_000);
    await w.read(['a1', 'b1'], 1_300, 1_400);
    expect(await w.owned('B')).toEqual(['b1']);
    expect(await w.owned('A')).toEqual(['a1']);
  });

  it('G29: when the reads cannot tell two presses apart, the row goes to the earlier one (its deadline comes first)', async () => {
    const w = await world();
    await w.press('A', 0);
    await w.press('B', 50);
    // The first read began after both presses: a1 and b1 could be either's.
    await w.read(['a1', 'b1'], 100, 200);
    expect(await w.owned('A')).toEqual(['a1', 'b1']);
    expect(await w.owned('B')).toEqual([]);
  });

  it('an earlier press whose event arrives late takes the rows its time explains', async () => {
    const w = await world();
    await w.read([], 0, 50);
    await w.press('B', 1_000);
    await w.read(['x1'], 1_100, 1_200);
    expect(await w.owned('B')).toEqual(['x1']);
    // Z was pressed at 500, after the empty read began: x1 may be Z's, whose deadline is earlier.
    await w.press('Z', 500);
    await w.read(['x1'], 1_300, 1_400);
    expect(await w.owned('Z')).toEqual(['x1']);
    expect(await w.owned('B')).toEqual([]);
  });

  it('a row answered under one request and pressed again is the new request’s; a read older than the answer changes nothing', async () => {
    const w = await world();
    await w.press('A', 0);
    await w.read(['x', 'a1'], 100, 200);
    await answer(w.scope, ['x'], 'A');
    // A read that began before the answer was acknowledged still lists x: stale for x.
    await w.read(['x', 'a1'], 300, 400);
    expect(await w.owned('A')).toEqual(['a1']);
    // D is pressed after the answer (now, on the database's clock), with x in it again.
    const now = await nowMs(w);
    await w.press('D', now + 1_000);
    await w.read(['x', 'a1'], now + 1_100, now + 1_200);
    expect(await w.owned('D')).toEqual(['x']);
    expect(await w.owned('A')).toEqual(['a1']);
  });

  it('a read that overlaps a result and is recorded before the result is acknowledged does not hide the answer', async () => {
    const w = await world();
    await w.press('A', 0);
    await w.read(['x'], 100, 200);
    const batch = await freeze(w.scope, ['x'], 'A');
    const frozen = batch.frozenAt.getTime() - w.at(0).getTime();
    // Began before the result was frozen, ended after: it may have listed x before the answer.
    await w.read(['x'], frozen - 10, frozen + 10);
    await acknowledge(batch);
    const now = await nowMs(w);
    await w.press('D', now + 1_000);
    await w.read(['x'], now + 1_100, now + 1_200);
    expect(await w.owned('D')).toEqual(['x']);
    expect(await w.owned('A')).toEqual([]);
  });

  it('a row a complete read no longer lists ends its streak; listed again later, it belongs to the press after that read', async () => {
    const w = await world();
    await w.press('A', 0);
    await w.read(['x'], 100, 200);
    // Answered elsewhere (a regular sync, with no request id): the next read does not list it.
    await w.read([], 300, 400);
    expect(await w.owned('A')).toEqual([]);
    await w.press('B', 1_000);
    await w.read(['x'], 1_100, 1_200);
    expect(await w.owned('B')).toEqual(['x']);
  });

  it('a row is never given to a request closed before it was listed (G29: its window had ended)', async () => {
    const w = await world();
    await w.press('OLD', -SYNC_WINDOW_MS - 10_000);
    await w.read(['x'], 100, 200);
    expect(await w.owned('OLD')).toEqual([]);
  });

  it('G28: a press ignored because its flag was off takes no rows; a later press answers them', async () => {
    const w = await world();
    await w.press('Z', 0);
    await closeSyncRequest(db.sql, `${w.scope.connectionId}:Z`, 'IGNORED');
    await w.press('A', 50);
    await w.read(['z1', 'a1'], 100, 200);
    expect(await w.owned('Z')).toEqual([]);
    expect(await w.owned('A')).toEqual(['a1', 'z1']);
  });

  it('whether an answered request still has rows waiting comes from the database alone', async () => {
    const w = await world();
    await w.press('A', 0);
    await w.read(['a1', 'a2'], 100, 200);
    expect(await hasUnansweredRows(db.sql, w.scope, `${w.scope.connectionId}:A`)).toBe(true);
    await answer(w.scope, ['a1', 'a2'], 'A');
    expect(await hasUnansweredRows(db.sql, w.scope, `${w.scope.connectionId}:A`)).toBe(false);
  });
});
