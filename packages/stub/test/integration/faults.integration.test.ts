import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, tokenFor } from './helpers.ts';

/** PUT /__stub/faults: injected 5xx, 429 storms, 504s, dropped connections, seeded dice. */
describe('stub faults', () => {
  let h: Harness;
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
    await h.control.post('/seed', { seed: 2, transactions: 30 });
  });

  const readyId = async () =>
    (await h.api.get('/transactions?sync_status=SYNC_READY&page_size=2')).body.data[0].id;
  const syncBody = (id: string, key: string) => ({
    idempotency_key: key,
    sync_type: 'TRANSACTION_SYNC',
    successful_syncs: [{ id, reference_id: 'JE-1' }],
  });

  it('per-route error rate answers 5xx with an F2 body; other routes are untouched', async () => {
    await h.control.put('/faults', { routes: { 'GET /entities': { error_rate: 1, error_status: 502 } } });
    const res = await h.api.get('/entities');
    expect(res.status).toBe(502);
    expect(res.body.error_v2.error_code).toBe('DEVELOPER_7500');
    expect((await h.api.get('/transactions')).status).toBe(200);
  });

  it('commit then drop: the sync is applied, the client gets no answer, the same key replays it (F15)', async () => {
    const id = await readyId();
    await h.control.put('/faults', {
      once: [{ route: 'POST /accounting/syncs', action: 'drop_after_commit' }],
    });
    await expect(h.api.post('/accounting/syncs', syncBody(id, 'drop-1'))).rejects.toThrow();
    expect((await h.api.get(`/transactions/${id}`)).body.sync_status).toBe('SYNCED');
    const replay = await h.api.post('/accounting/syncs', syncBody(id, 'drop-1'));
    expect(replay.status).toBe(201);
    expect(replay.body.results).toEqual([{ id, status: 'SYNCED' }]);
    const effects = (await h.control.get('/effects?summary=true')).body;
    expect(effects.marks.filter((m: { object_id: string }) => m.object_id === id)).toHaveLength(1);
    expect(effects.summary.synced_more_than_once).toEqual([]);
    const dropped = effects.arrivals.filter((a: { route: string }) => a.route === '/accounting/syncs');
    expect(dropped.map((a: { status: number }) => a.status)).toEqual([0, 201]);
  });

  it('drop before: no effect and no answer', async () => {
    const id = await readyId();
    await h.control.put('/faults', { once: [{ route: '/accounting/syncs', action: 'drop_before' }] });
    await expect(h.api.post('/accounting/syncs', syncBody(id, 'drop-2'))).rejects.toThrow();
    expect((await h.api.get(`/transactions/${id}`)).body.sync_status).toBe('SYNC_READY');
  });

  it('timeout faults: 504 without effect, or 504 after the effect (uncertain outcome)', async () => {
    const a = await readyId();
    await h.control.put('/faults', {
      once: [
        { route: 'POST /accounting/syncs', action: 'timeout' },
        { route: 'POST /accounting/syncs', action: 'timeout_after_commit' },
      ],
    });
    const first = await h.api.post('/accounting/syncs', syncBody(a, 't-1'));
    expect(first.status).toBe(504);
    expect(first.body.error_v2.error_code).toBe('DEVELOPER_7504');
    expect((await h.api.get(`/transactions/${a}`)).body.sync_status).toBe('SYNC_READY');
    const second = await h.api.post('/accounting/syncs', syncBody(a, 't-1'));
    expect(second.status).toBe(504);
    expect((await h.api.get(`/transactions/${a}`)).body.sync_status).toBe('SYNCED');
  });

  it('429 storm: the next N platform requests are 429 with Retry-After; control routes are not', async () => {
    await h.control.put('/faults', { storm_429: { count: 3 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await h.api.get('/entities')).status);
    expect(statuses).toEqual([429, 429, 429, 200]);
    await h.control.put('/faults', { storm_429: { duration_ms: 60_000 } });
    const limited = await h.api.get('/entities');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect((await h.control.get('/health')).status).toBe(200);
    await h.control.post('/clock', { advance_ms: 60_000 });
    expect((await h.api.get('/entities')).status).toBe(200);
  });

  it('dice come from a seeded PRNG: the same seed fails the same requests', async () => {
    const run = async () => {
      await h.control.put('/faults', { seed: 7, routes: { '*': { error_rate: 0.5 } } });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await h.api.get('/entities')).status);
      return statuses;
    };
    const first = await run();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await run()).toEqual(first);
  });

  it('unknown fault settings are refused (422) and GET /__stub/faults shows what is in force', async () => {
    expect((await h.control.put('/faults', { chaos_monkey: true })).status).toBe(422);
    await h.control.put('/faults', { reject_remote_ids: ['X'] });
    expect((await h.control.get('/faults')).body.reject_remote_ids).toEqual(['X']);
  });
});
