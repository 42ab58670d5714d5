import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './helpers.ts';

/** Control routes (packages/stub/README.md) and the OpenAPI document. */
describe('stub control routes and openapi', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
    await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
    await h.control.post('/seed', { seed: 1, transactions: 20, bills: 5 });
  });
  afterAll(async () => {
    await h.stub.close();
  });

  it('GET /__stub/effects pages arrivals by sequence number (since) with a limit', async () => {
    for (let i = 0; i < 5; i++) await h.api.get('/entities');
    const first = (await h.control.get('/effects?include=arrivals&limit=3')).body;
    expect(first.arrivals).toHaveLength(3);
    expect(first.arrivals[0]).toMatchObject({
      seq: 0,
      method: 'POST',
      route: '/token',
      ip: '127.0.0.1',
      status: 200,
    });
    const rest = (
      await h.control.get(`/effects?include=arrivals&arrivals_since=${first.next.arrivals_since}`)
    ).body;
    expect(rest.arrivals[0].seq).toBe(3);
    expect(rest.arrivals.at(-1).route).toBe('/entities');
    expect(first.totals.arrivals).toBeGreaterThanOrEqual(7);
  });

  it('GET /__stub/objects/{type}/{id} shows the object and its state; PATCH overrides fields', async () => {
    const t = (await h.api.get('/transactions?page_size=2')).body.data[0];
    const view = (await h.control.get(`/objects/transactions/${t.id}`)).body;
    expect(view.object).toEqual(t);
    expect(view.state).toMatchObject({ sync_status: t.sync_status, failures: [], syncs: [] });
    const patched = await h.control.patch(`/objects/transaction/${t.id}`, {
      memo: 'Override memo',
      amount: 12.5,
    });
    expect(patched.body).toMatchObject({ memo: 'Override memo', amount: 12.5 });
    expect((await h.api.get(`/transactions/${t.id}`)).body.memo).toBe('Override memo');
    expect((await h.control.get('/objects/widgets/x')).status).toBe(422);
  });

  it('POST /__stub/seed with append adds objects after the existing ones', async () => {
    const before = (await h.control.get('/health')).body.counts.transaction;
    const res = await h.control.post('/seed', {
      seed: 99,
      append: true,
      transactions: 10,
      bills: 0,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
    });
    expect(res.body.appended.transaction).toEqual({ first_index: before, count: 10 });
    expect((await h.control.get('/health')).body.counts.transaction).toBe(before + 10);
  });

  it('control routes refuse unknown fields (422) and unknown paths (404)', async () => {
    expect((await h.control.post('/seed', { seed: 1, transactionz: 5 })).status).toBe(422);
    expect((await h.control.get('/nope')).status).toBe(404);
  });

  it('GET /openapi.json is an OpenAPI 3.1 document generated from the zod schemas', async () => {
    const res = await fetch(`${h.stub.url}/openapi.json`);
    expect(res.status).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: walking a JSON document
    const doc = (await res.json()) as Record<string, any>;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe('/developer/v1');
    const syncs = doc.paths['/accounting/syncs'].post;
    expect(syncs.security).toEqual([{ bearer: ['accounting:write'] }]);
    const body = syncs.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['idempotency_key', 'sync_type']));
    expect(body.additionalProperties).toBe(false);
    expect(doc.paths['/token'].post.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
    const list = doc.paths['/transactions'].get.parameters.map((p: { name: string }) => p.name);
    expect(list).toEqual(expect.arrayContaining(['start', 'page_size', 'sync_status', 'requested_to_sync']));
    expect(doc.paths['/accounting/accounts/{id}'].patch).toBeDefined();
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/__stub'))).toBe(false);
  });

  it('POST /__stub/reset empties the world and restores the default client', async () => {
    await h.control.post('/reset');
    expect((await h.control.get('/health')).body.counts.transaction).toBe(0);
    expect((await h.control.get('/effects')).body.totals).toEqual({ arrivals: 0, marks: 0 });
  });
});
