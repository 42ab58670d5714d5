import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allPages, type Harness, harness, tokenFor } from './helpers.ts';

/** docs/platform.md G28 and G29 (5-minute window, driven by the stub clock). */
describe('stub sync button', () => {
  let h: Harness;
  let connectionId: string;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.stub.close();
  });
  beforeEach(async () => {
    await h.control.post('/reset');
    h.api.setToken(await tokenFor(h.stub));
    connectionId = (
      await h.api.post('/accounting/connection', {
        remote_provider_name: 'Tryton',
        settings: { transaction_sync_button_enabled: true, reimbursement_sync_button_enabled: true },
      })
    ).body.id;
    await h.control.post('/seed', { seed: 8, transactions: 40, reimbursements: 20 });
  });

  const press = async (objectType: string, n: number) => {
    const ready = (await h.api.get(`/${objectType.toLowerCase()}s?sync_status=SYNC_READY&page_size=${n}`))
      .body.data;
    const ids = ready.map((o: { id: string }) => o.id);
    const pressed = await h.control.post('/sync-button', { object_type: objectType, object_ids: ids });
    expect(pressed.status).toBe(201);
    return { ids: ids as string[], requestId: pressed.body.sync_request_id as string };
  };
  const sync = (body: Record<string, unknown>, key: string) =>
    h.api.post('/accounting/syncs', { idempotency_key: key, ...body });

  it('rule 4: requested rows are listed with requested_to_sync=true (F16)', async () => {
    const { ids } = await press('TRANSACTION', 5);
    const requested = await allPages(h.api, '/transactions?sync_status=SYNC_READY&requested_to_sync=true');
    expect(requested.map((t) => t.id)).toEqual(ids);
    const reimb = await press('REIMBURSEMENT', 3);
    const requestedR = await allPages(h.api, '/reimbursements?requested_to_sync=true');
    expect(requestedR.map((t) => t.id)).toEqual(reimb.ids);
  });

  it('rule 4: results posted with sync_request_id, in several posts, clear the requested rows', async () => {
    const { ids, requestId } = await press('TRANSACTION', 4);
    const first = await sync(
      {
        sync_type: 'TRANSACTION_SYNC',
        sync_request_id: requestId,
        successful_syncs: [{ id: ids[0], reference_id: 'A' }],
      },
      'sb-1',
    );
    expect(first.body).toMatchObject({ sync_request_id: requestId, results: [{ status: 'SYNCED' }] });
    await sync(
      {
        sync_type: 'TRANSACTION_SYNC',
        sync_request_id: requestId,
        failed_syncs: [{ id: ids[1], error: { message: 'Temporary: ERP locked, retry later' } }],
      },
      'sb-2',
    );
    const stillRequested = await allPages(h.api, '/transactions?requested_to_sync=true');
    expect(stillRequested.map((t) => t.id)).toEqual(ids.slice(2));
  });

  it('sync-button rule: rows not posted within 5 minutes are marked failed by the platform', async () => {
    const { ids, requestId } = await press('TRANSACTION', 3);
    await sync(
      {
        sync_type: 'TRANSACTION_SYNC',
        sync_request_id: requestId,
        successful_syncs: [{ id: ids[0], reference_id: 'A' }],
      },
      'sb-3',
    );
    const early = await h.control.post('/clock', { advance_ms: 4 * 60_000 + 59_000 });
    expect(early.body.expired_rows).toBe(0);
    const late = await h.control.post('/clock', { advance_ms: 1_000 });
    expect(late.body.expired_rows).toBe(2);
    expect(await allPages(h.api, '/transactions?requested_to_sync=true')).toEqual([]);
    for (const id of ids.slice(1)) {
      const view = (await h.control.get(`/objects/transactions/${id}`)).body;
      expect(view.state.failures).toEqual([
        expect.objectContaining({
          source: 'sync_window',
          sync_request_id: requestId,
          message: expect.stringMatching(/5 minutes/),
        }),
      ]);
      // A failed row stays ready: a later post still succeeds.
      expect(view.state.sync_status).toBe('SYNC_READY');
    }
    const marks = (await h.control.get('/effects?include=marks')).body.marks;
    expect(marks.filter((m: { result: string }) => m.result === 'EXPIRED')).toHaveLength(2);
    const syncedRow = (await h.control.get(`/objects/transactions/${ids[0]}`)).body;
    expect(syncedRow.state.failures).toEqual([]);
  });

  it('rule 4: the sync button needs its setting; without it the press is refused (409)', async () => {
    await h.api.patch(`/accounting/connection/${connectionId}`, {
      settings: { transaction_sync_button_enabled: false },
    });
    const res = await h.control.post('/sync-button', { object_type: 'TRANSACTION' });
    expect(res.status).toBe(409);
  });

  it('an unknown sync_request_id is 422; one for another object type too', async () => {
    const reimb = await press('REIMBURSEMENT', 2);
    const [t] = (await h.api.get('/transactions?sync_status=SYNC_READY&page_size=2')).body.data;
    const unknown = await sync(
      {
        sync_type: 'TRANSACTION_SYNC',
        sync_request_id: 'nope',
        successful_syncs: [{ id: t.id, reference_id: 'A' }],
      },
      'sb-4',
    );
    expect(unknown.status).toBe(422);
    const wrongKind = await sync(
      {
        sync_type: 'TRANSACTION_SYNC',
        sync_request_id: reimb.requestId,
        successful_syncs: [{ id: t.id, reference_id: 'A' }],
      },
      'sb-5',
    );
    expect(wrongKind.status).toBe(422);
  });

  it('pressing without ids requests every ready row; GET /__stub/sync-requests shows the deadline', async () => {
    const pressed = await h.control.post('/sync-button', { object_type: 'TRANSACTION' });
    const readyCount = (await allPages(h.api, '/transactions?sync_status=SYNC_READY&page_size=100')).length;
    expect(pressed.body.object_ids).toHaveLength(readyCount);
    const listed = (await h.control.get(`/sync-requests/${pressed.body.sync_request_id}`)).body;
    expect(Date.parse(listed.deadline) - Date.parse(listed.created_at)).toBe(5 * 60_000);
  });
});
