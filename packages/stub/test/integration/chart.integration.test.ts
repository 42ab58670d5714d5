import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allPages, type Harness, harness, tokenFor } from './helpers.ts';

/** Chart-of-accounts uploads: docs/platform.md F8-F13, G17 and G9. */
describe('stub chart of accounts', () => {
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
    connectionId = (await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' })).body.id;
  });

  const gl = (n: number, extra: Record<string, unknown> = {}) => ({
    id: `GL-${n}`,
    name: `Account ${n}`,
    classification: 'EXPENSE',
    ...extra,
  });
  const glCount = async () => (await h.control.get('/chart')).body.counts.gl_accounts;

  it('F8: GL upload with code "" is accepted; 201 with svc_id, is_active, visibility', async () => {
    const res = await h.api.post('/accounting/accounts', {
      gl_accounts: [gl(1, { code: '' }), gl(2, { code: '6100' })],
    });
    expect(res.status).toBe(201);
    expect(res.body.accounting_connection_id).toBe(connectionId);
    expect(res.body.gl_accounts[0]).toMatchObject({
      id: 'GL-1',
      code: '',
      classification: 'EXPENSE',
      is_active: true,
      visibility: 'VISIBLE',
    });
    expect(res.body.gl_accounts[0].svc_id).toEqual(expect.any(String));
  });

  it('F8: uploads with accounting_connection_id target an inactive connection (migration rule 5)', async () => {
    const inactive = await h.api.post('/accounting/connection', {
      remote_provider_name: 'New',
      is_active: false,
    });
    const res = await h.api.post('/accounting/accounts', {
      accounting_connection_id: inactive.body.id,
      gl_accounts: [gl(1)],
    });
    expect(res.status).toBe(201);
    expect(res.body.accounting_connection_id).toBe(inactive.body.id);
    expect(await glCount()).toBe(0);
    const listed = await h.api.get(`/accounting/accounts?accounting_connection_id=${inactive.body.id}`);
    expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual(['GL-1']);
  });

  it('docs/platform.md G9: 1..500 items per call (0 and 501 are 422)', async () => {
    expect((await h.api.post('/accounting/accounts', { gl_accounts: [] })).status).toBe(422);
    const many = Array.from({ length: 501 }, (_, i) => gl(i));
    expect((await h.api.post('/accounting/accounts', { gl_accounts: many })).status).toBe(422);
    expect((await h.api.post('/accounting/accounts', { gl_accounts: many.slice(0, 500) })).status).toBe(201);
    expect(await glCount()).toBe(500);
  });

  it('all-or-nothing: one bad item is 422 naming its index and id; nothing is created', async () => {
    const res = await h.api.post('/accounting/accounts', {
      gl_accounts: [gl(1), gl(2), { id: 'GL-3', name: 'Bad', classification: 'NOT_A_CLASS' }],
    });
    expect(res.status).toBe(422);
    expect(res.body.error_v2.additional_info.items).toEqual([{ list: 'gl_accounts', index: 2, id: 'GL-3' }]);
    expect(await glCount()).toBe(0);
  });

  it('F5: an unknown field on an item is 422 naming the field; nothing is created', async () => {
    const res = await h.api.post('/accounting/accounts', { gl_accounts: [gl(1), gl(2, { colour: 'red' })] });
    expect(res.status).toBe(422);
    expect(res.body.error_v2.additional_info.unknown_fields).toEqual(['gl_accounts.1.colour']);
    expect(await glCount()).toBe(0);
  });

  it('F12: an existing remote id is 400 DEVELOPER_7020 naming the duplicates; nothing is created', async () => {
    await h.api.post('/accounting/accounts', { gl_accounts: [gl(1)] });
    const res = await h.api.post('/accounting/accounts', { gl_accounts: [gl(5), gl(1)] });
    expect(res.status).toBe(400);
    expect(res.body.error_v2.error_code).toBe('DEVELOPER_7020');
    expect(res.body.error_v2.additional_info.duplicate_ids).toEqual(['GL-1']);
    expect(await glCount()).toBe(1);
  });

  it('F12: an inactive (deleted) remote id is still a duplicate; PATCH reactivate brings it back', async () => {
    const up = await h.api.post('/accounting/accounts', { gl_accounts: [gl(1)] });
    const svc = up.body.gl_accounts[0].svc_id;
    expect((await h.api.del(`/accounting/accounts/${svc}`)).status).toBe(204);
    expect((await h.api.get(`/accounting/accounts/${svc}`)).body.is_active).toBe(false);
    expect(
      (await h.api.post('/accounting/accounts', { gl_accounts: [gl(1)] })).body.error_v2.error_code,
    ).toBe('DEVELOPER_7020');
    const back = await h.api.patch(`/accounting/accounts/${svc}`, {
      reactivate: true,
      code: '7000',
      name: 'Renamed',
    });
    expect(back.body).toMatchObject({ is_active: true, code: '7000', name: 'Renamed' });
  });

  it('repeated id inside one batch is 422 naming the repeat', async () => {
    const res = await h.api.post('/accounting/vendors', {
      vendors: [
        { id: 'V1', name: 'A' },
        { id: 'V1', name: 'B' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.error_v2.additional_info.items[0]).toMatchObject({ index: 1, id: 'V1' });
  });

  it('platform-invalid remote ids (PUT /__stub/faults reject_remote_ids): 422 names the items, nothing created', async () => {
    await h.control.put('/faults', { reject_remote_ids: ['GL-7', 'GL-9'] });
    const res = await h.api.post('/accounting/accounts', { gl_accounts: [gl(6), gl(7), gl(8), gl(9)] });
    expect(res.status).toBe(422);
    expect(res.body.error_v2.additional_info.items).toEqual([
      { index: 1, id: 'GL-7', reason: 'rejected by the platform' },
      { index: 3, id: 'GL-9', reason: 'rejected by the platform' },
    ]);
    expect(await glCount()).toBe(0);
    await h.control.put('/faults', {});
  });

  it('GET filters is_active, code, visibility and pages (F4)', async () => {
    const up = await h.api.post('/accounting/accounts', {
      gl_accounts: Array.from({ length: 30 }, (_, i) => gl(i, { code: i % 2 ? 'odd' : 'even' })),
    });
    const svc = up.body.gl_accounts.map((a: { svc_id: string }) => a.svc_id);
    await h.api.del(`/accounting/accounts/${svc[0]}`);
    await h.api.patch(`/accounting/accounts/${svc[1]}`, { visibility: 'HIDDEN' });
    const all = await allPages(h.api, '/accounting/accounts?page_size=7');
    expect(all).toHaveLength(30);
    expect((await allPages(h.api, '/accounting/accounts?is_active=false')).map((a) => a.id)).toEqual([
      'GL-0',
    ]);
    expect(await allPages(h.api, '/accounting/accounts?code=odd&page_size=100')).toHaveLength(15);
    const hidden = await allPages(h.api, '/accounting/accounts?visibility=HIDDEN');
    expect(hidden.map((a) => [a.id, a.is_active])).toEqual([['GL-1', true]]);
  });

  it('F9: fields return svc_id; posting an existing id returns it and reactivates it', async () => {
    const created = await h.api.post('/accounting/fields', {
      id: 'dept',
      name: 'Department',
      input_type: 'SINGLE_CHOICE',
    });
    expect(created.status).toBe(201);
    const svc = created.body.svc_id;
    await h.api.del(`/accounting/fields/${svc}`);
    const again = await h.api.post('/accounting/fields', {
      id: 'dept',
      name: 'Department',
      input_type: 'SINGLE_CHOICE',
    });
    expect(again.body).toMatchObject({ svc_id: svc, is_active: true });
  });

  it('F10: options take the field svc_id; GET needs exactly one of field_id / field_remote_id; PUT updates', async () => {
    const field = await h.api.post('/accounting/fields', {
      id: 'dept',
      name: 'Department',
      input_type: 'SINGLE_CHOICE',
    });
    const up = await h.api.post('/accounting/field-options', {
      field_id: field.body.svc_id,
      options: [
        { id: 'ENG', value: 'Engineering' },
        { id: 'OPS', value: 'Operations', code: 'O1' },
      ],
    });
    expect(up.status).toBe(201);
    expect(up.body.options[1]).toMatchObject({
      id: 'OPS',
      value: 'Operations',
      code: 'O1',
      visibility: 'VISIBLE',
    });
    expect((await h.api.get('/accounting/field-options')).status).toBe(422);
    const both = await h.api.get(
      `/accounting/field-options?field_id=${field.body.svc_id}&field_remote_id=dept`,
    );
    expect(both.status).toBe(422);
    const byRemote = await h.api.get('/accounting/field-options?field_remote_id=dept');
    expect(byRemote.body.data).toHaveLength(2);
    const put = await h.api.put(`/accounting/field-options/${up.body.options[0].svc_id}`, {
      value: 'Eng',
      display_name: 'R&D',
    });
    expect(put.body).toMatchObject({ value: 'Eng', display_name: 'R&D' });
    const hidden = await h.api.patch(`/accounting/field-options/${up.body.options[1].svc_id}`, {
      visibility: 'HIDDEN',
    });
    expect(hidden.body).toMatchObject({ visibility: 'HIDDEN', is_active: true });
    const visible = await h.api.get(
      `/accounting/field-options?field_id=${field.body.svc_id}&visibility=VISIBLE`,
    );
    expect(visible.body.data.map((o: { id: string }) => o.id)).toEqual(['ENG']);
  });

  it('F11: vendors upload and PATCH code', async () => {
    const up = await h.api.post('/accounting/vendors', { vendors: [{ id: 'V1', name: 'Acme', code: 'AC' }] });
    expect(up.body.vendors[0]).toMatchObject({ id: 'V1', name: 'Acme', code: 'AC', is_active: true });
    const patched = await h.api.patch(`/accounting/vendors/${up.body.vendors[0].svc_id}`, { code: 'ACME' });
    expect(patched.body.code).toBe('ACME');
  });

  it('F13: tax rates (negative allowed), then the tax code, then options referencing rates', async () => {
    await h.api.post('/accounting/accounts', { gl_accounts: [gl(1)] });
    const rates = await h.api.post('/accounting/tax/rates', {
      tax_rates: [
        { id: 'VAT20', name: 'VAT 20%', rate: '0.2', accounting_gl_account_id: 'GL-1' },
        { id: 'RC', name: 'Reverse charge', rate: '-0.2', accounting_gl_account_id: 'GL-1' },
      ],
    });
    expect(rates.status).toBe(201);
    expect(rates.body.tax_rates[1].rate).toBe('-0.2');
    const early = await h.api.post('/accounting/tax/code/options', {
      options: [{ id: 'S', name: 'Std', tax_rate_ids: ['VAT20'] }],
    });
    expect(early.status).toBe(422);
    const code = await h.api.post('/accounting/tax/code', { name: 'Tax code' });
    expect(code.status).toBe(201);
    const bad = await h.api.post('/accounting/tax/code/options', {
      options: [
        { id: 'S', name: 'Std', tax_rate_ids: ['VAT20'] },
        { id: 'X', name: 'Bad', tax_rate_ids: ['NOPE'] },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error_v2.additional_info.items).toEqual([
      { index: 1, id: 'X', reason: 'unknown tax_rate_ids NOPE' },
    ]);
    const ok = await h.api.post('/accounting/tax/code/options', {
      options: [{ id: 'S', name: 'Std', tax_rate_ids: ['VAT20', 'RC'] }],
    });
    expect(ok.status).toBe(201);
    const unknownGl = await h.api.post('/accounting/tax/rates', {
      tax_rates: [{ id: 'Z', name: 'Zero', rate: '0', accounting_gl_account_id: 'GL-404' }],
    });
    expect(unknownGl.status).toBe(422);
  });

  it('GET /__stub/chart shows everything uploaded to a connection', async () => {
    await h.api.post('/accounting/accounts', { gl_accounts: [gl(1)] });
    await h.api.post('/accounting/vendors', { vendors: [{ id: 'V1', name: 'Acme' }] });
    const chart = await h.control.get(`/chart?accounting_connection_id=${connectionId}`);
    expect(chart.body.counts).toMatchObject({ gl_accounts: 1, vendors: 1 });
    expect(chart.body.gl_accounts[0].id).toBe('GL-1');
  });
});
