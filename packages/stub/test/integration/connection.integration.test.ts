import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, tokenFor } from './helpers.ts';

/** docs/platform.md F6, F7, G13, G31, G25. */
describe('stub accounting connection', () => {
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
  });

  it('F6: create returns 201 with the connection shape and default-false settings', async () => {
    const res = await h.api.post('/accounting/connection', {
      remote_provider_name: 'Tryton',
      settings: { transaction_sync_button_enabled: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      connection_type: 'API',
      is_active: true,
      is_ready_to_migrate: false,
      remote_provider_name: 'Tryton',
      status: 'linked',
      settings: {
        entity_selection_enabled: false,
        reimbursement_sync_button_enabled: false,
        transaction_accounting_vendor_creation_on_sync_enabled: false,
        transaction_sync_button_enabled: true,
        vendor_credits_enabled: false,
      },
    });
    expect(res.body.id).toEqual(expect.any(String));
    expect(res.body.created_at).toEqual(expect.any(String));
    const active = await h.api.get('/accounting/connection');
    expect(active.body.id).toBe(res.body.id);
    const byId = await h.api.get(`/accounting/connection/${res.body.id}`);
    expect(byId.body.status).toBe('linked');
  });

  it('F6: posting an active connection while one is active returns the incumbent (201, same id)', async () => {
    const first = await h.api.post('/accounting/connection', { remote_provider_name: 'A' });
    const second = await h.api.post('/accounting/connection', { remote_provider_name: 'B', is_active: true });
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect((await h.api.get('/accounting/all-connections')).body.connections).toHaveLength(1);
  });

  it('docs/platform.md G13: an inactive connection reads unlinked; all-connections lists both; only one is active', async () => {
    await h.api.post('/accounting/connection', { remote_provider_name: 'Old' });
    const inactive = await h.api.post('/accounting/connection', {
      remote_provider_name: 'New',
      is_active: false,
    });
    expect(inactive.body).toMatchObject({ is_active: false, status: 'unlinked', last_linked_at: null });
    const all = await h.api.get('/accounting/all-connections');
    expect(all.body.connections.map((c: { is_active: boolean }) => c.is_active).sort()).toEqual([
      false,
      true,
    ]);
  });

  it('PATCH /accounting/connection/{id} changes settings; unknown settings are 422 (F5)', async () => {
    const c = await h.api.post('/accounting/connection', { remote_provider_name: 'A' });
    const patched = await h.api.patch(`/accounting/connection/${c.body.id}`, {
      settings: { reimbursement_sync_button_enabled: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.settings.reimbursement_sync_button_enabled).toBe(true);
    const bad = await h.api.patch(`/accounting/connection/${c.body.id}`, { settings: { turbo_mode: true } });
    expect(bad.status).toBe(422);
    expect(bad.body.error_v2.additional_info.fields).toContain('settings.turbo_mode');
  });

  it('F6, F39: DELETE unlinks (204) and removes custom fields, GL accounts, vendors; then the active read is {}, a second DELETE 404', async () => {
    await h.api.post('/accounting/connection', { remote_provider_name: 'A' });
    await h.api.post('/accounting/accounts', {
      gl_accounts: [{ id: '6000', name: 'Meals', classification: 'EXPENSE' }],
    });
    await h.api.post('/accounting/vendors', { vendors: [{ id: 'V1', name: 'Acme' }] });
    await h.api.post('/accounting/fields', { id: 'dept', name: 'Department', input_type: 'SINGLE_CHOICE' });
    const del = await h.api.del('/accounting/connection');
    expect(del.status).toBe(204);
    // docs/platform.md F39: with no active connection the single read answers {} (not a 404).
    const none = await h.api.get('/accounting/connection');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({});
    const all = await h.api.get('/accounting/all-connections');
    expect(all.body.connections[0]).toMatchObject({ is_active: false, status: 'unlinked' });
    const chart = await h.control.get(`/chart?accounting_connection_id=${all.body.connections[0].id}`);
    expect(chart.body.counts).toMatchObject({ gl_accounts: 0, vendors: 0, fields: 0 });
    expect((await h.api.del('/accounting/connection')).status).toBe(404);
  });

  describe('F7: ready-to-migrate preconditions (409 DEVELOPER_7001 naming the failed one)', () => {
    const migrate = (id: string) => h.api.post(`/accounting/connection/${id}/ready-to-migrate`);

    it('F7: succeeds for an inactive API connection while another is active', async () => {
      await h.api.post('/accounting/connection', { remote_provider_name: 'Old' });
      const target = await h.api.post('/accounting/connection', {
        remote_provider_name: 'New',
        is_active: false,
      });
      const res = await migrate(target.body.id);
      expect(res.status).toBe(200);
      expect(res.body.is_ready_to_migrate).toBe(true);
    });

    it('F7 precondition 1: must be an inactive API connection', async () => {
      const active = await h.api.post('/accounting/connection', { remote_provider_name: 'Old' });
      const res = await migrate(active.body.id);
      expect(res.status).toBe(409);
      expect(res.body.error_v2.error_code).toBe('DEVELOPER_7001');
      expect(res.body.error_v2.additional_info.precondition).toBe('inactive_api_connection');
      expect(res.body.error_v2.message).toMatch(/inactive API connection/);
    });

    it('F7 precondition 2: a separate active connection must exist', async () => {
      const target = await h.api.post('/accounting/connection', {
        remote_provider_name: 'New',
        is_active: false,
      });
      const res = await migrate(target.body.id);
      expect(res.status).toBe(409);
      expect(res.body.error_v2.additional_info.precondition).toBe('active_connection_exists');
    });

    it('F7 precondition 3: not already ready', async () => {
      await h.api.post('/accounting/connection', { remote_provider_name: 'Old' });
      const target = await h.api.post('/accounting/connection', {
        remote_provider_name: 'New',
        is_active: false,
      });
      await migrate(target.body.id);
      const res = await migrate(target.body.id);
      expect(res.status).toBe(409);
      expect(res.body.error_v2.additional_info.precondition).toBe('not_already_ready');
    });

    it('F7 precondition 4: no other migration in progress', async () => {
      await h.api.post('/accounting/connection', { remote_provider_name: 'Old' });
      const a = await h.api.post('/accounting/connection', { remote_provider_name: 'A', is_active: false });
      const b = await h.api.post('/accounting/connection', { remote_provider_name: 'B', is_active: false });
      expect((await migrate(a.body.id)).status).toBe(200);
      const res = await migrate(b.body.id);
      expect(res.status).toBe(409);
      expect(res.body.error_v2.additional_info.precondition).toBe('no_migration_in_progress');
    });

    it('docs/platform.md G31: the customer switch (control route) makes the ready connection active', async () => {
      const old = await h.api.post('/accounting/connection', { remote_provider_name: 'Old' });
      const target = await h.api.post('/accounting/connection', {
        remote_provider_name: 'New',
        is_active: false,
      });
      await migrate(target.body.id);
      const switched = await h.control.post(`/connections/${target.body.id}/switch`);
      expect(switched.body).toMatchObject({ is_active: true, status: 'linked', is_ready_to_migrate: false });
      expect((await h.api.get(`/accounting/connection/${old.body.id}`)).body.is_active).toBe(false);
      expect((await h.api.get('/accounting/connection')).body.id).toBe(target.body.id);
    });
  });

  it('docs/platform.md G25: a DIRECT connection refuses chart writes and sync marking with DEVELOPER_7089', async () => {
    const direct = await h.control.post('/connections', {
      remote_provider_name: 'NetSuite',
      connection_type: 'DIRECT',
    });
    expect(direct.body.connection_type).toBe('DIRECT');
    await h.control.post('/seed', { seed: 3, transactions: 5, bills: 0 });
    const upload = await h.api.post('/accounting/accounts', {
      gl_accounts: [{ id: '6000', name: 'Meals', classification: 'EXPENSE' }],
    });
    expect(upload.status).toBe(400);
    expect(upload.body.error_v2.error_code).toBe('DEVELOPER_7089');
    const ready = await h.api.get('/transactions?sync_status=SYNC_READY');
    const sync = await h.api.post('/accounting/syncs', {
      idempotency_key: 'direct-1',
      sync_type: 'TRANSACTION_SYNC',
      successful_syncs: [{ id: ready.body.data[0].id, reference_id: 'JE-1' }],
    });
    expect(sync.status).toBe(400);
    expect(sync.body.error_v2.error_code).toBe('DEVELOPER_7089');
  });
});
