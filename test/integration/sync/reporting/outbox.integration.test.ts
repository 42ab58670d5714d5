import { describe, expect, it } from 'vitest';
import { ackBatch, freezeBatch, frozenBatches } from '../../../../src/sync/reporting/index.ts';
import { claimRows, recordOutcomes, releaseClosedRequests } from '../../../../src/sync/sync-ledger/index.ts';
import { useTestDatabase } from '../../../support/db.ts';

const db = useTestDatabase();
let n = 0;
const conn = () => `conn-${++n}`;
const T = 'TRANSACTION_SYNC';

async function states(connectionId: string): Promise<Record<string, string>> {
  const rows =
    await db.sql`select object_id, state from sync_ledger where connection_id = ${connectionId} order by object_id`;
  return Object.fromEntries(rows.map((r) => [r.object_id, r.state]));
}

describe('sync_ledger and the result outbox', () => {
  it('claims new objects once; a second claim of the same ids while outcomes wait is empty', async () => {
    const c = conn();
    expect(await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a', 'b'] })).toEqual([
      'a',
      'b',
    ]);
    await recordOutcomes(db.sql, c, T, [
      { objectId: 'a', ok: true, referenceId: 'JE-1' },
      { objectId: 'b', ok: false, category: 'user_actionable', message: 'Action needed: x.' },
    ]);
    expect(await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a', 'b'] })).toEqual([]);
    expect(await states(c)).toEqual({ a: 'IN_ERP', b: 'FAILED' });
  });

  it('a row left PENDING by a crash is due again (the ERP write is idempotent by object id)', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] });
    expect(await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] })).toEqual(['a']);
  });

  it('an outcome is recorded only from PENDING (a late duplicate recording changes nothing)', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] });
    expect(await recordOutcomes(db.sql, c, T, [{ objectId: 'a', ok: true, referenceId: 'JE-1' }])).toBe(1);
    expect(await recordOutcomes(db.sql, c, T, [{ objectId: 'a', ok: true, referenceId: 'JE-2' }])).toBe(0);
    const [row] = await db.sql`select reference_id from sync_ledger where connection_id = ${c}`;
    expect(row?.reference_id).toBe('JE-1');
  });

  it('F14: freezes successes and failures in one body, omits an empty list, and never refreezes a row', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a', 'b', 'c'] });
    await recordOutcomes(db.sql, c, T, [
      { objectId: 'a', ok: true, referenceId: 'JE-1' },
      { objectId: 'c', ok: false, category: 'transient', message: 'Temporary problem: ERP busy.' },
    ]);
    const batch = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    expect(batch?.body).toEqual({
      idempotency_key: batch?.idempotencyKey,
      sync_type: T,
      successful_syncs: [{ id: 'a', reference_id: 'JE-1' }],
      failed_syncs: [{ id: 'c', error: { message: 'Temporary problem: ERP busy.' } }],
    });
    expect(await freezeBatch(db.sql, { connectionId: c, syncType: T })).toBeNull();
    await recordOutcomes(db.sql, c, T, [{ objectId: 'b', ok: true, referenceId: 'JE-2' }]);
    const second = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    expect(second?.body.successful_syncs).toEqual([{ id: 'b', reference_id: 'JE-2' }]);
    expect(second?.body).not.toHaveProperty('failed_syncs');
    expect(second?.idempotencyKey).not.toBe(batch?.idempotencyKey);
  });

  it('F14: at most 5,000 items per frozen batch', async () => {
    const c = conn();
    const ids = Array.from({ length: 5003 }, (_, i) => `o${String(i).padStart(5, '0')}`);
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ids });
    await recordOutcomes(
      db.sql,
      c,
      T,
      ids.map((id) => ({ objectId: id, ok: true as const, referenceId: `R${id}` })),
    );
    const first = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    const second = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    expect([first?.itemCount, second?.itemCount]).toEqual([5000, 3]);
  });

  it('F15: a frozen batch is read back byte-identical, with its key, until it is acknowledged', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] });
    await recordOutcomes(db.sql, c, T, [{ objectId: 'a', ok: true, referenceId: 'JE-1' }]);
    const batch = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    const [again] = await frozenBatches(db.sql, c);
    expect(again).toEqual(batch);
    expect(
      await ackBatch(db.sql, batch!.id, { syncId: 's1', response: { sync_id: 's1', results: [] } }),
    ).toBe(true);
    expect(await ackBatch(db.sql, batch!.id, { syncId: 's1', response: null })).toBe(false);
    expect(await frozenBatches(db.sql, c)).toEqual([]);
    expect(await states(c)).toEqual({ a: 'REPORTED' });
  });

  it('a reported object that is ready again (failure fixed by the bookkeeper) is claimed for another attempt', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] });
    await recordOutcomes(db.sql, c, T, [
      { objectId: 'a', ok: false, category: 'user_actionable', message: 'Action needed: x.' },
    ]);
    const batch = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    await ackBatch(db.sql, batch!.id, { syncId: 's', response: null });
    expect(await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] })).toEqual(['a']);
    const [row] = await db.sql`select state, attempts, batch_id from sync_ledger where connection_id = ${c}`;
    expect(row).toEqual({ state: 'PENDING', attempts: 1, batch_id: null });
  });

  it('rule 4: sync-button rows are frozen apart, carrying their sync_request_id', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] });
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['b'], syncRequestId: 'req-1' });
    await recordOutcomes(db.sql, c, T, [
      { objectId: 'a', ok: true, referenceId: 'R1' },
      { objectId: 'b', ok: true, referenceId: 'R2' },
    ]);
    const button = await freezeBatch(db.sql, { connectionId: c, syncType: T, syncRequestId: 'req-1' });
    expect(button?.body.sync_request_id).toBe('req-1');
    expect(button?.body.successful_syncs?.map((s) => s.id)).toEqual(['b']);
    const plain = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    expect(plain?.body.successful_syncs?.map((s) => s.id)).toEqual(['a']);
    expect(plain?.body).not.toHaveProperty('sync_request_id');
  });

  it('two freezers racing never put one row in two batches', async () => {
    const c = conn();
    const ids = Array.from({ length: 300 }, (_, i) => `r${i}`);
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ids });
    await recordOutcomes(
      db.sql,
      c,
      T,
      ids.map((id) => ({ objectId: id, ok: true as const, referenceId: id })),
    );
    const batches = await Promise.all(
      Array.from({ length: 4 }, () => freezeBatch(db.sql, { connectionId: c, syncType: T, max: 100 })),
    );
    const all = batches.flatMap((b) => b?.body.successful_syncs?.map((s) => s.id) ?? []);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeGreaterThan(0);
  });

  it("F14: the platform's per-item answer is kept on each row, so a REJECTED result is visible", async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a', 'b'] });
    await recordOutcomes(db.sql, c, T, [
      { objectId: 'a', ok: true, referenceId: 'JE-1' },
      { objectId: 'b', ok: true, referenceId: 'JE-2' },
    ]);
    const batch = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    await ackBatch(db.sql, batch!.id, {
      syncId: 's',
      response: {
        sync_id: 's',
        results: [
          { id: 'a', status: 'SYNCED' },
          { id: 'b', status: 'REJECTED', reason: 'already synced' },
        ],
      },
    });
    const rows =
      await db.sql`select object_id, platform_status, platform_reason from sync_ledger where connection_id = ${c} order by object_id`;
    expect(rows.map((r) => [r.object_id, r.platform_status, r.platform_reason])).toEqual([
      ['a', 'SYNCED', ''],
      ['b', 'REJECTED', 'already synced'],
    ]);
  });

  it('F14: every row of an acknowledged batch is REPORTED, those the per-item answer leaves out too', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a', 'b', 'c'] });
    await recordOutcomes(db.sql, c, T, [
      { objectId: 'a', ok: true, referenceId: 'JE-1' },
      { objectId: 'b', ok: false, category: 'user_actionable', message: 'Code the GL account.' },
      { objectId: 'c', ok: true, referenceId: 'JE-3' },
    ]);
    const batch = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    await ackBatch(db.sql, batch!.id, {
      syncId: 's',
      response: { sync_id: 's', results: [{ id: 'a', status: 'SYNCED' }] },
    });
    expect(await states(c)).toEqual({ a: 'REPORTED', b: 'REPORTED', c: 'REPORTED' });
    const rows =
      await db.sql`select object_id, platform_status from sync_ledger where connection_id = ${c} order by object_id`;
    expect(rows.map((r) => [r.object_id, r.platform_status])).toEqual([
      ['a', 'SYNCED'],
      ['b', null],
      ['c', null],
    ]);
  });

  it('F33: an answer without per-item results reports every row as applied as sent', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a', 'b'] });
    await recordOutcomes(db.sql, c, T, [
      { objectId: 'a', ok: true, referenceId: 'JE-1' },
      { objectId: 'b', ok: false, category: 'user_actionable', message: 'Code the GL account.' },
    ]);
    const batch = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    await ackBatch(db.sql, batch!.id, { syncId: 's', response: { sync_id: 's' } });
    expect(await states(c)).toEqual({ a: 'REPORTED', b: 'REPORTED' });
    const rows =
      await db.sql`select object_id, platform_status from sync_ledger where connection_id = ${c} order by object_id`;
    expect(rows.map((r) => [r.object_id, r.platform_status])).toEqual([
      ['a', 'SYNCED'],
      ['b', 'FAILED'],
    ]);
  });

  it('a success the platform just accepted is not claimed again from a stale page; an old one is', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] });
    await recordOutcomes(db.sql, c, T, [{ objectId: 'a', ok: true, referenceId: 'JE-1' }]);
    const batch = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    await ackBatch(db.sql, batch!.id, {
      syncId: 's',
      response: { sync_id: 's', results: [{ id: 'a', status: 'SYNCED' }] },
    });
    expect(await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] })).toEqual([]);
    await db.sql`update sync_ledger set updated_at = now() - interval '11 minutes' where connection_id = ${c}`;
    expect(await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] })).toEqual(['a']);
  });

  it('rule 4: outcomes of a sync-button request that closed without them go out with the next regular batch', async () => {
    const c = conn();
    await db.sql`insert into sync_requests (sync_request_id, connection_id, object_type, requested_at, deadline, state)
      values ('req-closed', ${c}, 'TRANSACTION', now(), now(), 'ANSWERED'), ('req-open', ${c}, 'TRANSACTION', now(), now() + interval '5 minutes', 'OPEN')`;
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'], syncRequestId: 'req-closed' });
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['b'], syncRequestId: 'req-open' });
    await recordOutcomes(db.sql, c, T, [
      { objectId: 'a', ok: false, category: 'transient', message: 'Temporary problem: x.' },
      { objectId: 'b', ok: true, referenceId: 'JE-2' },
    ]);
    expect(await releaseClosedRequests(db.sql, c)).toBe(1);
    const plain = await freezeBatch(db.sql, { connectionId: c, syncType: T });
    expect(plain?.body.failed_syncs?.map((f) => f.id)).toEqual(['a']);
    expect(plain?.body.successful_syncs).toBeUndefined();
  });
});
