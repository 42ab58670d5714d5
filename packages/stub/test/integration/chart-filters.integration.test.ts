import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './helpers.ts';

/** docs/platform.md F28: chart collections honour `remote_id` and `is_synced`. */
describe('stub chart collection filters (docs/platform.md F28)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
    await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
    await h.api.post('/accounting/accounts', {
      gl_accounts: [
        { id: '6100', name: 'Office', classification: 'EXPENSE' },
        { id: '6200', name: 'Travel', classification: 'EXPENSE' },
      ],
    });
    await h.api.post('/accounting/vendors', {
      vendors: [
        { id: 'V1', name: 'Acme' },
        { id: 'V2', name: 'Globex' },
      ],
    });
  });
  afterAll(async () => {
    await h.stub.close();
  });

  it('F28: remote_id picks the item with that ERP id; an unknown one gives an empty page', async () => {
    const one = await h.api.get('/accounting/accounts?remote_id=6200');
    expect(one.body.data.map((a: { id: string }) => a.id)).toEqual(['6200']);
    expect((await h.api.get('/accounting/vendors?remote_id=V1')).body.data).toHaveLength(1);
    expect((await h.api.get('/accounting/accounts?remote_id=nope')).body.data).toEqual([]);
  });

  it('F28: is_synced=true lists uploaded items, is_synced=false none of them', async () => {
    expect((await h.api.get('/accounting/accounts?is_synced=true')).body.data).toHaveLength(2);
    expect((await h.api.get('/accounting/accounts?is_synced=false')).body.data).toEqual([]);
    expect((await h.api.get('/accounting/vendors?is_synced=true')).body.data).toHaveLength(2);
    expect((await h.api.get('/accounting/accounts?is_synced=maybe')).status).toBe(422);
  });
});
