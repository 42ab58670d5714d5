import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allPages, type Harness, harness, tokenFor } from './helpers.ts';

/**
 * docs/platform.md G26 (accounting-vendor creation), docs/platform.md F17, F18, F19, the item
 * lifecycle (HIDDEN keeps syncing, inactive cannot sync) and the vendor link on PATCH /vendors.
 */
describe('stub accounting-vendor creation flow and codings', () => {
  let h: Harness;
  let key = 0;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.stub.close();
  });
  beforeEach(async () => {
    await h.control.post('/reset');
    h.api.setToken(await tokenFor(h.stub));
    await h.api.post('/accounting/connection', {
      remote_provider_name: 'Tryton',
      settings: { transaction_accounting_vendor_creation_on_sync_enabled: true },
    });
    await h.api.post('/accounting/accounts', {
      gl_accounts: [
        { id: '6000', name: 'Meals', classification: 'EXPENSE' },
        { id: '6100', name: 'Travel', classification: 'EXPENSE' },
      ],
    });
    await h.control.post('/seed', {
      seed: 21,
      transactions: 80,
      bills: 20,
      vendor_creation_fraction: 0.5,
      uncoded_fraction: 0,
      unknown_coding_fraction: 0,
      chart: { gl_accounts: ['6000', '6100'], vendors: ['V-OLD'], fields: [], tax_codes: [] },
    });
  });

  const sync = (id: string) =>
    h.api.post('/accounting/syncs', {
      idempotency_key: `vf-${++key}`,
      sync_type: 'TRANSACTION_SYNC',
      successful_syncs: [{ id, reference_id: `JE-${key}` }],
    });
  const needingVendor = async () => {
    const ready = await allPages(h.api, '/transactions?sync_status=SYNC_READY&page_size=100');
    const found = ready.filter((t) => t.requires_accounting_vendor_creation_to_sync === true);
    expect(found.length).toBeGreaterThan(1);
    return found;
  };

  it('F17: with the setting on, a ready transaction without a MERCHANT selection has requires_... true', async () => {
    const ready = await allPages(h.api, '/transactions?sync_status=SYNC_READY&page_size=100');
    for (const t of ready) {
      const hasVendor = t.accounting_field_selections.some((s: { type: string }) => s.type === 'MERCHANT');
      expect(t.requires_accounting_vendor_creation_to_sync).toBe(!hasVendor);
    }
  });

  it('F17: a successful TRANSACTION_SYNC for it is REJECTED and the transaction stays ready', async () => {
    const [t] = await needingVendor();
    const res = await sync(t.id);
    expect(res.body.results[0].status).toBe('REJECTED');
    expect(res.body.results[0].reason).toMatch(/accounting vendor/);
    expect((await h.api.get(`/transactions/${t.id}`)).body.sync_status).toBe('SYNC_READY');
  });

  it('docs/platform.md G26: uploading the vendor alone does not attach it', async () => {
    const [t] = await needingVendor();
    await h.api.post('/accounting/vendors', { vendors: [{ id: 'V-NEW', name: t.merchant_name }] });
    const after = (await h.api.get(`/transactions/${t.id}`)).body;
    expect(after.requires_accounting_vendor_creation_to_sync).toBe(true);
    expect((await sync(t.id)).body.results[0].status).toBe('REJECTED');
  });

  it('F18: POST /accounting/codings with Merchant attaches the uploaded vendor; the sync then succeeds', async () => {
    const [t] = await needingVendor();
    await h.api.post('/accounting/vendors', { vendors: [{ id: 'V-NEW', name: 'New vendor' }] });
    const coded = await h.api.post('/accounting/codings', {
      object_type: 'TRANSACTION',
      object_id: t.id,
      accounting_field_selections: [{ field_external_id: 'Merchant', field_option_external_id: 'V-NEW' }],
    });
    expect(coded.status).toBe(200);
    const merchant = coded.body.accounting_field_selections.find(
      (s: { type: string }) => s.type === 'MERCHANT',
    );
    expect(merchant).toMatchObject({
      external_id: 'V-NEW',
      name: 'New vendor',
      category_info: { external_id: 'Merchant' },
    });
    expect(coded.body.requires_accounting_vendor_creation_to_sync).toBe(false);
    expect((await sync(t.id)).body.results[0].status).toBe('SYNCED');
  });

  it('F18: coding to a vendor that was never uploaded is 422 naming the selection', async () => {
    const [t] = await needingVendor();
    const res = await h.api.post('/accounting/codings', {
      object_type: 'TRANSACTION',
      object_id: t.id,
      accounting_field_selections: [{ field_external_id: 'Merchant', field_option_external_id: 'V-GHOST' }],
    });
    expect(res.status).toBe(422);
    expect(res.body.error_v2.additional_info.items[0]).toMatchObject({
      index: 0,
      field_external_id: 'Merchant',
    });
  });

  it('F18: Category codes the GL account; a HIDDEN account cannot be chosen for new coding', async () => {
    const [t] = await needingVendor();
    const gl = (await h.api.get('/accounting/accounts')).body.data;
    const coded = await h.api.post('/accounting/codings', {
      object_type: 'TRANSACTION',
      object_id: t.id,
      accounting_field_selections: [{ field_external_id: 'Category', field_option_external_id: '6100' }],
    });
    expect(
      coded.body.accounting_field_selections.find((s: { type: string }) => s.type === 'GL_ACCOUNT'),
    ).toMatchObject({
      external_id: '6100',
      name: 'Travel',
      id: gl[1].svc_id,
    });
    await h.api.patch(`/accounting/accounts/${gl[0].svc_id}`, { visibility: 'HIDDEN' });
    const hidden = await h.api.post('/accounting/codings', {
      object_type: 'TRANSACTION',
      object_id: t.id,
      accounting_field_selections: [{ field_external_id: 'Category', field_option_external_id: '6000' }],
    });
    expect(hidden.status).toBe(422);
  });

  it('docs/platform.md G17: HIDDEN keeps syncing historical values; an inactive item cannot be synced', async () => {
    const ready = await allPages(h.api, '/transactions?sync_status=SYNC_READY&page_size=100');
    const coded = (gl: string) =>
      ready.filter(
        (t) =>
          !t.requires_accounting_vendor_creation_to_sync &&
          t.line_items.some((l: { accounting_field_selections: Array<{ external_id: string }> }) =>
            l.accounting_field_selections.some((s) => s.external_id === gl),
          ),
      );
    const accounts = (await h.api.get('/accounting/accounts')).body.data;
    await h.api.patch(`/accounting/accounts/${accounts[0].svc_id}`, { visibility: 'HIDDEN' });
    await h.api.del(`/accounting/accounts/${accounts[1].svc_id}`);
    const onHidden = coded('6000').find((t) => coded('6100').every((u) => u.id !== t.id));
    const onInactive = coded('6100')[0];
    expect((await sync(onHidden.id)).body.results[0].status).toBe('SYNCED');
    const res = await sync(onInactive.id);
    expect(res.body.results[0]).toMatchObject({ status: 'REJECTED', reason: 'coded to inactive item 6100' });
  });

  it('F17: with the setting off the field is absent and the sync is not blocked', async () => {
    const [t] = await needingVendor();
    const connection = (await h.api.get('/accounting/connection')).body;
    await h.api.patch(`/accounting/connection/${connection.id}`, {
      settings: { transaction_accounting_vendor_creation_on_sync_enabled: false },
    });
    const after = (await h.api.get(`/transactions/${t.id}`)).body;
    expect('requires_accounting_vendor_creation_to_sync' in after).toBe(false);
    expect((await sync(t.id)).body.results[0].status).toBe('SYNCED');
  });

  it('F19: POST /accounting/ready-to-sync makes objects ready (204); unknown ids are 422', async () => {
    const notReady = (await h.api.get('/transactions?sync_status=NOT_SYNC_READY&page_size=3')).body.data;
    const res = await h.api.post('/accounting/ready-to-sync', {
      object_type: 'TRANSACTION',
      object_ids: notReady.map((t: { id: string }) => t.id),
    });
    expect(res.status).toBe(204);
    for (const t of notReady)
      expect((await h.api.get(`/transactions/${t.id}`)).body.sync_status).toBe('SYNC_READY');
    const bad = await h.api.post('/accounting/ready-to-sync', {
      object_type: 'TRANSACTION',
      object_ids: ['nope'],
    });
    expect(bad.status).toBe(422);
    expect(
      (await h.api.post('/accounting/ready-to-sync', { object_type: 'TRANSACTION', object_ids: [] })).status,
    ).toBe(422);
  });

  it('docs/platform.md G19: PATCH /vendors/{id} accounting_vendor_remote_id puts the vendor on its bills', async () => {
    await h.api.post('/accounting/vendors', { vendors: [{ id: 'V-LINK', name: 'Linked vendor' }] });
    const bills = await allPages(h.api, '/bills?page_size=100');
    const bill = bills[0];
    const patched = await h.api.patch(`/vendors/${bill.vendor_id}`, {
      accounting_vendor_remote_id: 'V-LINK',
    });
    expect(patched.body.accounting_vendor_remote_id).toBe('V-LINK');
    const after = (await h.api.get(`/bills/${bill.id}`)).body;
    // docs/platform.md F26: a bill's selection has its type in category_info only.
    expect(after.accounting_field_selections).toEqual([
      expect.objectContaining({
        external_id: 'V-LINK',
        name: 'Linked vendor',
        category_info: expect.objectContaining({ type: 'MERCHANT' }),
      }),
    ]);
    expect('type' in after.accounting_field_selections[0]).toBe(false);
    expect(after.vendor.accounting_vendor_remote_id).toBe('V-LINK');
    expect(after.vendor.remote_id).toBe('V-LINK');
  });
});
