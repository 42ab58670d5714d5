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

  it('F4: empty_probe_pages answers a from_date probe with an empty page whose link leads to its objects', async () => {
    const from = encodeURIComponent('2000-01-01T00:00:00.000Z');
    const probe = `/transactions?sync_status=SYNC_READY&from_date=${from}&page_size=2`;
    const plain = await h.api.get(probe);
    expect(plain.body.data).toHaveLength(2);
    await h.control.put('/faults', { empty_probe_pages: ['/transactions'] });
    const empty = await h.api.get(probe);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.page.next).toEqual(expect.stringContaining('/developer/v1/transactions?'));
    // The link moves on: it leads to the page the probe held.
    const onward = await h.api.get(empty.body.page.next);
    expect(onward.body.data.map((t: { id: string }) => t.id)).toEqual(
      plain.body.data.map((t: { id: string }) => t.id),
    );
    // Only probes: a full page, a page without from_date and a later page are answered in full.
    expect((await h.api.get(probe.replace('page_size=2', 'page_size=100'))).body.data.length).toBeGreaterThan(
      2,
    );
    expect((await h.api.get('/transactions?sync_status=SYNC_READY&page_size=2')).body.data).toHaveLength(2);
    const later = await h.api.get(plain.body.page.next);
    expect(later.body.data).toHaveLength(2);
    // Other lists are untouched.
    await h.control.post('/seed', { seed: 2, transactions: 30, reimbursements: 10 });
    expect(
      (await h.api.get(`/reimbursements?sync_status=SYNC_READY&from_date=${from}&page_size=2`)).body.data,
    ).toHaveLength(2);
  });

  it('F43: page_links self links every page of the list, the last one too, to the URL just asked', async () => {
    await h.control.put('/faults', { page_links: { '/transactions': 'self' } });
    for (const asked of ['/transactions?page_size=2', '/transactions?page_size=100']) {
      const page = await h.api.get(asked);
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeGreaterThan(0);
      expect(page.body.page.next).toBe(`${h.stub.apiUrl}${asked}`);
      // Followed, it answers the same page again.
      expect((await h.api.get(page.body.page.next)).body).toEqual(page.body);
    }
    // Other lists are untouched.
    expect((await h.api.get('/entities?page_size=100')).body.page.next).toBeNull();
  });

  it('F43: page_links empty_onward serves the list once, then empty pages that point onward without end', async () => {
    await h.control.put('/faults', { page_links: { '/transactions': 'empty_onward' } });
    const ids: string[] = [];
    const links = new Set<string>();
    let url = '/transactions?page_size=20';
    let empty = 0;
    for (let i = 0; i < 12; i++) {
      const page = await h.api.get(url);
      ids.push(...page.body.data.map((t: { id: string }) => t.id));
      if (page.body.data.length === 0) empty++;
      expect(page.body.page.next).toEqual(expect.stringContaining('/developer/v1/transactions?'));
      links.add(page.body.page.next);
      url = page.body.page.next;
    }
    // 30 objects on two pages, then ten empty pages, each with a link never given before.
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(empty).toBe(10);
    expect(links.size).toBe(12);
  });

  it('unknown fault settings are refused (422) and GET /__stub/faults shows what is in force', async () => {
    expect((await h.control.put('/faults', { chaos_monkey: true })).status).toBe(422);
    await h.control.put('/faults', { reject_remote_ids: ['X'] });
    expect((await h.control.get('/faults')).body.reject_remote_ids).toEqual(['X']);
  });
});
