import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, tokenFor } from './helpers.ts';

/**
 * Writes as the published API reference and production clients describe them:
 * docs/platform.md F29 (connection in the body, JSON body on every write), F30 (update bodies),
 * F31 (reactivate, the tax code field, tax rate and tax code option items) and F34 (field create).
 */
describe('stub writes of the published API', () => {
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

  const uploadGl = async (connection?: string) => {
    const res = await h.api.post('/accounting/accounts', {
      ...(connection ? { accounting_connection_id: connection } : {}),
      gl_accounts: [
        { id: 'GL-1', name: 'Meals', classification: 'EXPENSE', code: '6000' },
        { id: 'GL-2', name: 'Sales tax', classification: 'LIABILITY' },
      ],
    });
    expect(res.status).toBe(201);
    return res.body.gl_accounts as Array<{ svc_id: string }>;
  };
  const uploadField = async () => {
    const field = await h.api.post('/accounting/fields', {
      id: 'dept',
      name: 'Department',
      input_type: 'SINGLE_CHOICE',
    });
    const options = await h.api.post('/accounting/field-options', {
      field_id: field.body.svc_id,
      options: [{ id: 'ENG', value: 'Engineering', code: 'E' }],
    });
    return { field: field.body, option: options.body.options[0] };
  };
  const uploadTax = async () => {
    await uploadGl();
    const rates = await h.api.post('/accounting/tax/rates', {
      tax_rates: [
        { id: 'R-5', name: 'Five', rate: '0.05', accounting_gl_account_id: 'GL-2' },
        { id: 'R-RC', name: 'Reverse charge', rate: '-0.2', accounting_gl_account_id: 'GL-2' },
      ],
    });
    expect(rates.status).toBe(201);
    const code = await h.api.post('/accounting/tax/code', { name: 'Tax code' });
    expect(code.status).toBe(201);
    const options = await h.api.post('/accounting/tax/code/options', {
      options: [{ id: 'TAX-STD', name: 'Standard', tax_rate_ids: ['R-5'] }],
    });
    expect(options.status).toBe(201);
    return { rates: rates.body.tax_rates, code: code.body, option: options.body.options[0] };
  };

  describe('F29: JSON bodies on writes', () => {
    it('F29: DELETE with no body is 400 DEVELOPER_7011; with {} it is 204', async () => {
      const [gl] = await uploadGl();
      const bare = await h.api.call('DELETE', `/accounting/accounts/${gl!.svc_id}`);
      expect(bare.status).toBe(400);
      expect(bare.body.error_v2.error_code).toBe('DEVELOPER_7011');
      expect((await h.api.get(`/accounting/accounts/${gl!.svc_id}`)).body.is_active).toBe(true);
      expect((await h.api.del(`/accounting/accounts/${gl!.svc_id}`, {})).status).toBe(204);
      expect((await h.api.get(`/accounting/accounts/${gl!.svc_id}`)).body.is_active).toBe(false);
    });

    it('F29: any bodyless POST, PATCH, PUT or DELETE on a platform route is 400 DEVELOPER_7011', async () => {
      const { option } = await uploadField();
      const writes: Array<[string, string]> = [
        ['POST', '/accounting/accounts'],
        ['POST', `/accounting/connection/${connectionId}/ready-to-migrate`],
        ['POST', `/accounting/connection/${connectionId}/reactivate`],
        ['POST', '/webhooks/00000000-0000-4000-8000-000000000000/verify'],
        ['PATCH', `/accounting/field-options/${option.svc_id}`],
        ['PUT', `/accounting/field-options/${option.svc_id}`],
        ['DELETE', '/accounting/connection'],
        ['DELETE', '/accounting/tax/code'],
      ];
      for (const [method, path] of writes) {
        const res = await h.api.call(method, path);
        expect([method, path, res.status, res.body.error_v2.error_code]).toEqual([
          method,
          path,
          400,
          'DEVELOPER_7011',
        ]);
      }
      // Nothing happened: the connection is still there and active.
      expect((await h.api.get('/accounting/connection')).body).toMatchObject({
        id: connectionId,
        is_active: true,
      });
    });

    it('F29: POST /token stays form-encoded; a bodyless token call is 400 DEVELOPER_7011', async () => {
      expect(await tokenFor(h.stub)).toMatch(/^svc_business_tok_/);
      const res = await fetch(`${h.stub.apiUrl}/token`, { method: 'POST' });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error_v2: { error_code: string } }).error_v2.error_code).toBe(
        'DEVELOPER_7011',
      );
    });

    it('F29: ready-to-migrate and connection DELETE take {} (and refuse unknown fields)', async () => {
      const next = await h.api.post('/accounting/connection', {
        remote_provider_name: 'New',
        is_active: false,
      });
      const extra = await h.api.post(`/accounting/connection/${next.body.id}/ready-to-migrate`, {
        now: true,
      });
      expect(extra.status).toBe(422);
      expect(extra.body.error_v2.additional_info.unknown_fields).toEqual(['now']);
      const ready = await h.api.post(`/accounting/connection/${next.body.id}/ready-to-migrate`, {});
      expect(ready.status).toBe(200);
      expect(ready.body.is_ready_to_migrate).toBe(true);
      expect((await h.api.del('/accounting/connection', {})).status).toBe(204);
    });

    it('F29: PATCH and DELETE take accounting_connection_id in the body and act on that connection only', async () => {
      const other = await h.api.post('/accounting/connection', {
        remote_provider_name: 'New',
        is_active: false,
      });
      const [onOther] = await uploadGl(other.body.id);
      const patched = await h.api.patch(`/accounting/accounts/${onOther!.svc_id}`, {
        accounting_connection_id: other.body.id,
        name: 'Meals (new ERP)',
      });
      expect(patched.status).toBe(200);
      expect(patched.body.name).toBe('Meals (new ERP)');
      // The item is not on the active connection: naming it there is 404.
      const wrong = await h.api.del(`/accounting/accounts/${onOther!.svc_id}`, {
        accounting_connection_id: connectionId,
      });
      expect(wrong.status).toBe(404);
      const unknown = await h.api.del(`/accounting/accounts/${onOther!.svc_id}`, {
        accounting_connection_id: 'no-such-connection',
      });
      expect(unknown.status).toBe(404);
      const deleted = await h.api.del(`/accounting/accounts/${onOther!.svc_id}`, {
        accounting_connection_id: other.body.id,
      });
      expect(deleted.status).toBe(204);
      const chart = await h.control.get(`/chart?accounting_connection_id=${other.body.id}`);
      expect(chart.body.gl_accounts[0].is_active).toBe(false);
    });

    it('F29: fields, field options, vendors, tax rates and tax code options accept the body target', async () => {
      const { field, option } = await uploadField();
      const vendor = (await h.api.post('/accounting/vendors', { vendors: [{ id: 'V-1', name: 'Acme' }] }))
        .body.vendors[0];
      const tax = await uploadTax();
      const target = { accounting_connection_id: connectionId };
      const items = [
        `/accounting/fields/${field.svc_id}`,
        `/accounting/field-options/${option.svc_id}`,
        `/accounting/vendors/${vendor.svc_id}`,
        `/accounting/tax/rates/${tax.rates[0].svc_id}`,
        `/accounting/tax/code/options/${tax.option.svc_id}`,
      ];
      for (const path of items) {
        const patched = await h.api.patch(path, { ...target, name: undefined });
        expect([path, patched.status]).toEqual([path, 200]);
        const deleted = await h.api.del(path, target);
        expect([path, deleted.status]).toEqual([path, 204]);
        const back = await h.api.patch(path, { ...target, reactivate: true });
        expect([path, back.status, back.body.is_active]).toEqual([path, 200, true]);
      }
    });

    it('F29: a DELETE body refuses unknown fields (F5)', async () => {
      const [gl] = await uploadGl();
      const res = await h.api.del(`/accounting/accounts/${gl!.svc_id}`, { hard: true });
      expect(res.status).toBe(422);
      expect(res.body.error_v2.additional_info.unknown_fields).toEqual(['hard']);
    });
  });

  describe('F30: update bodies', () => {
    it('F30: GL PATCH takes name, code ("" resets it), reactivate; classification is 422 DEVELOPER_7001 naming it', async () => {
      const [gl] = await uploadGl();
      const refused = await h.api.patch(`/accounting/accounts/${gl!.svc_id}`, { classification: 'ASSET' });
      expect(refused.status).toBe(422);
      expect(refused.body.error_v2.error_code).toBe('DEVELOPER_7001');
      expect(refused.body.error_v2.additional_info.unknown_fields).toEqual(['classification']);
      expect((await h.api.get(`/accounting/accounts/${gl!.svc_id}`)).body.classification).toBe('EXPENSE');
      const reset = await h.api.patch(`/accounting/accounts/${gl!.svc_id}`, {
        accounting_connection_id: connectionId,
        code: '',
        name: 'Meals and entertainment',
      });
      expect(reset.status).toBe(200);
      expect(reset.body).toMatchObject({
        code: null,
        name: 'Meals and entertainment',
        classification: 'EXPENSE',
      });
    });

    it('F30: GL PATCH still takes visibility (the platform guide makes GL accounts HIDDEN by PATCH)', async () => {
      const [gl] = await uploadGl();
      const hidden = await h.api.patch(`/accounting/accounts/${gl!.svc_id}`, { visibility: 'HIDDEN' });
      expect(hidden.status).toBe(200);
      expect(hidden.body).toMatchObject({ visibility: 'HIDDEN', is_active: true });
    });

    it('F30: field option PATCH and PUT take code, display_name, reactivate, value, visibility, none required', async () => {
      const { option } = await uploadField();
      const path = `/accounting/field-options/${option.svc_id}`;
      expect((await h.api.patch(path, {})).status).toBe(200);
      expect((await h.api.put(path, {})).status).toBe(200);
      const put = await h.api.put(path, { display_name: 'Eng', visibility: 'HIDDEN' });
      expect(put.body).toMatchObject({
        value: 'Engineering',
        display_name: 'Eng',
        visibility: 'HIDDEN',
        code: 'E',
      });
      await h.api.del(path, {});
      const patched = await h.api.patch(path, {
        code: '',
        display_name: null,
        reactivate: true,
        value: 'Engineering & Design',
        visibility: 'VISIBLE',
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        code: null,
        display_name: null,
        is_active: true,
        value: 'Engineering & Design',
        visibility: 'VISIBLE',
      });
      const bad = await h.api.put(path, { name: 'x' });
      expect(bad.status).toBe(422);
      expect(bad.body.error_v2.additional_info.unknown_fields).toEqual(['name']);
    });
  });

  describe('F31: connection reactivate, tax code field, tax items', () => {
    it('F31: POST /accounting/connection/{id}/reactivate links an unlinked connection again (200 connection)', async () => {
      expect((await h.api.del('/accounting/connection')).status).toBe(204);
      expect((await h.api.get(`/accounting/connection/${connectionId}`)).body.status).toBe('unlinked');
      const back = await h.api.post(`/accounting/connection/${connectionId}/reactivate`, {});
      expect(back.status).toBe(200);
      expect(back.body).toMatchObject({ id: connectionId, is_active: true, status: 'linked' });
      expect((await h.api.get('/accounting/connection')).body.id).toBe(connectionId);
      // Reactivating the active connection returns it unchanged.
      expect((await h.api.post(`/accounting/connection/${connectionId}/reactivate`, {})).status).toBe(200);
    });

    it('F31: reactivate while another connection is active is 409; an unknown id is 404', async () => {
      const other = await h.api.post('/accounting/connection', {
        remote_provider_name: 'New',
        is_active: false,
      });
      const res = await h.api.post(`/accounting/connection/${other.body.id}/reactivate`, {});
      expect(res.status).toBe(409);
      expect(res.body.error_v2.additional_info.precondition).toBe('no_other_active_connection');
      expect((await h.api.post('/accounting/connection/nope/reactivate', {})).status).toBe(404);
    });

    it('F31: GET/PATCH/DELETE /accounting/tax/code: one active tax code field per connection', async () => {
      expect((await h.api.get('/accounting/tax/code')).status).toBe(404);
      const { code } = await uploadTax();
      const got = await h.api.get('/accounting/tax/code');
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ svc_id: code.svc_id, name: 'Tax code', is_active: true });
      const patched = await h.api.patch('/accounting/tax/code', {
        accounting_connection_id: connectionId,
        name: 'VAT',
        display_name: 'VAT code',
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ svc_id: code.svc_id, name: 'VAT', display_name: 'VAT code' });
      expect((await h.api.patch('/accounting/tax/code', { rate: '1' })).status).toBe(422);
      expect((await h.api.del('/accounting/tax/code', {})).status).toBe(204);
      expect((await h.api.get('/accounting/tax/code')).status).toBe(404);
      // Posting the tax code again brings the same field back.
      const again = await h.api.post('/accounting/tax/code', { name: 'VAT 2' });
      expect(again.body).toMatchObject({ svc_id: code.svc_id, name: 'VAT 2', is_active: true });
    });

    it('F31: GET /accounting/tax/code answers for an inactive connection named in the query', async () => {
      const other = await h.api.post('/accounting/connection', {
        remote_provider_name: 'New',
        is_active: false,
      });
      await h.api.post('/accounting/tax/code', { accounting_connection_id: other.body.id, name: 'New tax' });
      const got = await h.api.get(`/accounting/tax/code?accounting_connection_id=${other.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ name: 'New tax', accounting_connection_id: other.body.id });
      expect((await h.api.get('/accounting/tax/code')).status).toBe(404);
    });

    it('F31: PATCH/DELETE /accounting/tax/rates/{svc_id} update and deactivate a rate', async () => {
      const { rates } = await uploadTax();
      const path = `/accounting/tax/rates/${rates[0].svc_id}`;
      const patched = await h.api.patch(path, {
        rate: '0.07',
        name: 'Seven',
        accounting_gl_account_id: 'GL-1',
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        id: 'R-5',
        rate: '0.07',
        name: 'Seven',
        accounting_gl_account_id: 'GL-1',
      });
      const badGl = await h.api.patch(path, { accounting_gl_account_id: 'GL-404' });
      expect(badGl.status).toBe(422);
      expect(badGl.body.error_v2.additional_info.fields).toEqual(['accounting_gl_account_id']);
      expect((await h.api.patch(path, { rate: 'five' })).status).toBe(422);
      expect((await h.api.del(path, {})).status).toBe(204);
      const listed = await h.api.get('/accounting/tax/rates?is_active=false');
      expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual(['R-5']);
      expect((await h.api.del('/accounting/tax/rates/no-such-rate', {})).status).toBe(404);
    });

    it('F31: tax code options carry accounting_connection_id; tax_rate_ids are remote ids; PATCH/DELETE by svc_id', async () => {
      const { option, rates } = await uploadTax();
      expect(option).toMatchObject({
        id: 'TAX-STD',
        accounting_connection_id: connectionId,
        tax_rate_ids: ['R-5'],
      });
      const listed = await h.api.get('/accounting/tax/code/options');
      expect(listed.body.data[0].accounting_connection_id).toBe(connectionId);
      const path = `/accounting/tax/code/options/${option.svc_id}`;
      // A rate's svc_id is not a remote id: refused, naming the unknown ids.
      const bySvc = await h.api.patch(path, { tax_rate_ids: [rates[1].svc_id] });
      expect(bySvc.status).toBe(422);
      expect(bySvc.body.error_v2.additional_info.unknown_tax_rate_ids).toEqual([rates[1].svc_id]);
      const patched = await h.api.patch(path, { name: 'Standard + RC', tax_rate_ids: ['R-5', 'R-RC'] });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ name: 'Standard + RC', tax_rate_ids: ['R-5', 'R-RC'] });
      expect((await h.api.del(path, {})).status).toBe(204);
      expect((await h.api.get('/accounting/tax/code/options?is_active=false')).body.data).toHaveLength(1);
    });
  });

  describe('F34: custom field create', () => {
    it('F34: input_type DATE is refused 422 DEVELOPER_7001 (DATE is read, never created)', async () => {
      const res = await h.api.post('/accounting/fields', { id: 'due', name: 'Due date', input_type: 'DATE' });
      expect(res.status).toBe(422);
      expect(res.body.error_v2.error_code).toBe('DEVELOPER_7001');
      expect(res.body.error_v2.additional_info.fields).toEqual(['input_type']);
      expect(res.body.error_v2.message).toContain('DATE');
      expect((await h.control.get('/chart')).body.counts.fields).toBe(0);
    });

    it('F34: is_required_for takes the published objects only', async () => {
      const all = [
        'BILL',
        'BILL_PAYMENT',
        'INVOICE',
        'PURCHASE_ORDER',
        'REIMBURSEMENT',
        'SPEND_PROGRAM',
        'TRANSACTION',
        'TRANSFER_LEDGER_ENTRY_MAPPING',
        'VENDOR_CREDIT',
      ];
      const ok = await h.api.post('/accounting/fields', {
        id: 'proj',
        name: 'Project',
        input_type: 'FREE_FORM_TEXT',
        is_required_for: all,
      });
      expect(ok.status).toBe(201);
      expect(ok.body.is_required_for).toEqual(all);
      const bad = await h.api.post('/accounting/fields', {
        id: 'cls',
        name: 'Class',
        input_type: 'BOOLEAN',
        is_required_for: ['TRANSACTION', 'CARD'],
      });
      expect(bad.status).toBe(422);
      expect(bad.body.error_v2.additional_info.fields).toEqual(['is_required_for.1']);
    });
  });
});
