import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allPages, type Harness, harness, tokenFor } from './helpers.ts';

/** POST /accounting/syncs: docs/platform.md F14, F15, G20 and G23. */
describe('stub sync marking', () => {
  let h: Harness;
  let key = 0;
  const nextKey = () => `key-${++key}`;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.stub.close();
  });
  beforeEach(async () => {
    await h.control.post('/reset');
    h.api.setToken(await tokenFor(h.stub));
    await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
    await h.control.post('/seed', { seed: 11, transactions: 60, bills: 80, reimbursements: 10 });
  });

  const ready = async (n: number) =>
    (await h.api.get(`/transactions?sync_status=SYNC_READY&page_size=${n}`)).body.data;
  const sync = (body: Record<string, unknown>) =>
    h.api.post('/accounting/syncs', { idempotency_key: nextKey(), ...body });
  const view = async (type: string, id: string) => (await h.control.get(`/objects/${type}/${id}`)).body;

  it('docs/platform.md F14 + G27: mixed body: per-item results, SYNC_READY → SYNCED, failed stays ready with its message', async () => {
    const [a, b, c] = await ready(3);
    const res = await sync({
      sync_type: 'TRANSACTION_SYNC',
      successful_syncs: [
        { id: a.id, reference_id: 'JE-1' },
        { id: b.id, reference_id: 'JE-2' },
      ],
      failed_syncs: [{ id: c.id, error: { message: 'Action needed: GL 6400 is closed for posting' } }],
    });
    expect(res.status).toBe(201);
    expect(res.body.sync_id).toEqual(expect.any(String));
    expect(res.body.results).toEqual([
      { id: a.id, status: 'SYNCED' },
      { id: b.id, status: 'SYNCED' },
      { id: c.id, status: 'FAILED' },
    ]);
    expect((await h.api.get(`/transactions/${a.id}`)).body.sync_status).toBe('SYNCED');
    expect((await h.api.get(`/transactions/${a.id}`)).body.synced_at).toEqual(expect.any(String));
    expect((await h.api.get(`/transactions/${c.id}`)).body.sync_status).toBe('SYNC_READY');
    const failed = await view('transactions', c.id);
    expect(failed.state.failures[0]).toMatchObject({
      message: 'Action needed: GL 6400 is closed for posting',
    });
    expect((await view('transactions', a.id)).state.syncs[0]).toMatchObject({ reference_id: 'JE-1' });
  });

  it('F14: REJECTED when unknown, not ready, or already synced; nothing changes', async () => {
    const notReady = (await h.api.get('/transactions?sync_status=NOT_SYNC_READY&page_size=2')).body.data[0];
    const synced = (await h.api.get('/transactions?sync_status=SYNCED&page_size=2')).body.data[0];
    const res = await sync({
      sync_type: 'TRANSACTION_SYNC',
      successful_syncs: [
        { id: 'no-such-id', reference_id: 'X' },
        { id: notReady.id, reference_id: 'Y' },
        { id: synced.id, reference_id: 'Z' },
      ],
    });
    expect(res.body.results.map((r: { status: string; reason: string }) => [r.status, r.reason])).toEqual([
      ['REJECTED', 'unknown object'],
      ['REJECTED', 'not ready to sync'],
      ['REJECTED', 'already synced'],
    ]);
    expect((await h.api.get(`/transactions/${notReady.id}`)).body.sync_status).toBe('NOT_SYNC_READY');
  });

  it('F14: a transaction id under another sync type is REJECTED as unknown', async () => {
    const [t] = await ready(2);
    const res = await sync({ sync_type: 'BILL_SYNC', successful_syncs: [{ id: t.id, reference_id: 'B' }] });
    expect(res.body.results[0]).toMatchObject({ status: 'REJECTED', reason: 'unknown object' });
  });

  describe('F14: malformed bodies are refused with 422 DEVELOPER_7001', () => {
    it('F14: an empty list is 422 (omit it instead)', async () => {
      const res = await sync({ sync_type: 'TRANSACTION_SYNC', successful_syncs: [] });
      expect(res.status).toBe(422);
      expect(res.body.error_v2.error_code).toBe('DEVELOPER_7001');
    });

    it('F14: a flat {id, message} failed item is 422', async () => {
      const [t] = await ready(2);
      const res = await sync({
        sync_type: 'TRANSACTION_SYNC',
        failed_syncs: [{ id: t.id, message: 'flat' }],
      });
      expect(res.status).toBe(422);
      expect(res.body.error_v2.additional_info.fields).toContain('failed_syncs.0.message');
    });

    it('F14: more than 5,000 items in a list is 422; exactly 5,000 is accepted', async () => {
      const items = (n: number) =>
        Array.from({ length: n }, (_, i) => ({ id: `x-${i}`, reference_id: `r-${i}` }));
      expect((await sync({ sync_type: 'TRANSACTION_SYNC', successful_syncs: items(5001) })).status).toBe(422);
      const ok = await sync({ sync_type: 'TRANSACTION_SYNC', successful_syncs: items(5000) });
      expect(ok.status).toBe(201);
      expect(ok.body.results).toHaveLength(5000);
    });

    it('F14: neither list, a missing idempotency key, an unknown sync_type, an unknown field are 422', async () => {
      expect((await sync({ sync_type: 'TRANSACTION_SYNC' })).status).toBe(422);
      const noKey = await h.api.post('/accounting/syncs', {
        sync_type: 'TRANSACTION_SYNC',
        successful_syncs: [{ id: 'a', reference_id: 'b' }],
      });
      expect(noKey.status).toBe(422);
      expect(
        (await sync({ sync_type: 'INVOICE_SYNC', successful_syncs: [{ id: 'a', reference_id: 'b' }] }))
          .status,
      ).toBe(422);
      const extra = await sync({
        sync_type: 'TRANSACTION_SYNC',
        successful_syncs: [{ id: 'a', reference_id: 'b' }],
        dry_run: true,
      });
      expect(extra.body.error_v2.additional_info.unknown_fields).toEqual(['dry_run']);
    });

    it('F14: deep_link_url is for bills only', async () => {
      const [t] = await ready(2);
      const res = await sync({
        sync_type: 'TRANSACTION_SYNC',
        successful_syncs: [{ id: t.id, reference_id: 'JE', deep_link_url: 'https://erp.example/je/1' }],
      });
      expect(res.status).toBe(422);
    });
  });

  describe('F15: idempotency', () => {
    it('F15: same key, same body replays the first response with no second effect', async () => {
      const [t] = await ready(2);
      const body = {
        idempotency_key: 'same-key',
        sync_type: 'TRANSACTION_SYNC',
        successful_syncs: [{ id: t.id, reference_id: 'JE-9' }],
      };
      const first = await h.api.post('/accounting/syncs', body);
      // Same content, other key order: still "the same body".
      const second = await h.api.post('/accounting/syncs', {
        successful_syncs: [{ reference_id: 'JE-9', id: t.id }],
        sync_type: 'TRANSACTION_SYNC',
        idempotency_key: 'same-key',
      });
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      const marks = (await h.control.get(`/effects?include=marks&object_id=${t.id}`)).body.marks;
      expect(marks).toHaveLength(1);
    });

    it('F15: same key, different body is 400 DEVELOPER_7005', async () => {
      const [t, u] = await ready(2);
      await h.api.post('/accounting/syncs', {
        idempotency_key: 'k',
        sync_type: 'TRANSACTION_SYNC',
        successful_syncs: [{ id: t.id, reference_id: '1' }],
      });
      const res = await h.api.post('/accounting/syncs', {
        idempotency_key: 'k',
        sync_type: 'TRANSACTION_SYNC',
        successful_syncs: [{ id: u.id, reference_id: '1' }],
      });
      expect(res.status).toBe(400);
      expect(res.body.error_v2.error_code).toBe('DEVELOPER_7005');
      expect((await h.api.get(`/transactions/${u.id}`)).body.sync_status).toBe('SYNC_READY');
    });

    it('F15: live mode (idempotent_replay error_7005) answers 7005 even to an identical retry', async () => {
      await h.control.put('/faults', { idempotent_replay: 'error_7005' });
      const [t] = await ready(2);
      const body = {
        idempotency_key: 'live',
        sync_type: 'TRANSACTION_SYNC',
        successful_syncs: [{ id: t.id, reference_id: '1' }],
      };
      expect((await h.api.post('/accounting/syncs', body)).status).toBe(201);
      const again = await h.api.post('/accounting/syncs', body);
      expect(again.status).toBe(400);
      expect(again.body.error_v2.error_code).toBe('DEVELOPER_7005');
      await h.control.put('/faults', {});
    });

    it('F15: a refused (422) body does not use up its key', async () => {
      const [t] = await ready(2);
      expect(
        (
          await h.api.post('/accounting/syncs', {
            idempotency_key: 'k2',
            sync_type: 'TRANSACTION_SYNC',
            successful_syncs: [],
          })
        ).status,
      ).toBe(422);
      const ok = await h.api.post('/accounting/syncs', {
        idempotency_key: 'k2',
        sync_type: 'TRANSACTION_SYNC',
        successful_syncs: [{ id: t.id, reference_id: '1' }],
      });
      expect(ok.status).toBe(201);
    });
  });

  it('reimbursements, transfers and cashbacks sync with their own sync types', async () => {
    for (const [path, type] of [
      ['reimbursements', 'REIMBURSEMENT_SYNC'],
      ['transfers', 'TRANSFER_SYNC'],
      ['cashbacks', 'STATEMENT_CREDIT_SYNC'],
    ] as const) {
      const obj = (await h.api.get(`/${path}?sync_status=SYNC_READY&page_size=2`)).body.data[0];
      const res = await sync({ sync_type: type, successful_syncs: [{ id: obj.id, reference_id: 'R' }] });
      expect(res.body.results[0].status).toBe('SYNCED');
      expect((await h.api.get(`/${path}/${obj.id}`)).body.sync_status).toBe('SYNCED');
    }
  });

  it('effects: every mark is recorded once per object; synced_more_than_once stays empty', async () => {
    const items = await ready(10);
    await sync({
      sync_type: 'TRANSACTION_SYNC',
      successful_syncs: items.map((t: { id: string }) => ({ id: t.id, reference_id: 'R' })),
    });
    await sync({
      sync_type: 'TRANSACTION_SYNC',
      successful_syncs: items.map((t: { id: string }) => ({ id: t.id, reference_id: 'R' })),
    });
    const effects = (await h.control.get('/effects?include=marks&summary=true')).body;
    expect(effects.marks.filter((m: { result: string }) => m.result === 'SYNCED')).toHaveLength(10);
    expect(effects.marks.filter((m: { result: string }) => m.result === 'REJECTED')).toHaveLength(10);
    expect(effects.summary.synced_more_than_once).toEqual([]);
    expect(effects.marks[0]).toMatchObject({
      object_type: 'transaction',
      sync_type: 'TRANSACTION_SYNC',
      idempotency_key: expect.any(String),
    });
  });

  it('synced_after lists objects by sync time (delta sync, docs/platform.md G11)', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const [t] = await ready(2);
    await sync({ sync_type: 'TRANSACTION_SYNC', successful_syncs: [{ id: t.id, reference_id: 'R' }] });
    const recent = await allPages(
      h.api,
      `/transactions?synced_after=${encodeURIComponent(before)}&page_size=100`,
    );
    expect(recent.map((x) => x.id)).toEqual([t.id]);
  });
});
