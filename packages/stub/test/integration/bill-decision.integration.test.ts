import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allPages, type Harness, harness, tokenFor } from './helpers.ts';

/** docs/platform.md G23 and F16 bill states, one test per row. */
describe('stub bill sync', () => {
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
    await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
    await h.control.post('/seed', { seed: 11, transactions: 0, bills: 80 });
  });

  const sync = (body: Record<string, unknown>) =>
    h.api.post('/accounting/syncs', { idempotency_key: `bill-${++key}`, ...body });
  const view = async (type: string, id: string) => (await h.control.get(`/objects/${type}/${id}`)).body;

  describe('bill decision table (docs/platform.md G23), row by row', () => {
    const billIn = async (syncStatus: string, status: string) => {
      const bills = await allPages(
        h.api,
        `/bills?sync_status=${syncStatus}&status=${status}&is_accounting_sync_enabled=true&page_size=100`,
      );
      expect(bills.length).toBeGreaterThan(0);
      return bills[0];
    };
    const billSync = (type: string, id: string, extra: Record<string, unknown> = {}) =>
      sync({
        sync_type: type,
        successful_syncs: [{ id, reference_id: `${type}-${id.slice(-4)}`, ...extra }],
      });

    it('row 1: NOT_SYNCED + OPEN → BILL_SYNC only (then not ready; payment sync REJECTED until paid)', async () => {
      const bill = await billIn('NOT_SYNCED', 'OPEN');
      expect((await billSync('BILL_PAYMENT_SYNC', bill.id)).body.results[0].status).toBe('REJECTED');
      const res = await billSync('BILL_SYNC', bill.id, { deep_link_url: 'https://erp.example/bill/1' });
      expect(res.body.results[0].status).toBe('SYNCED');
      const after = (await h.api.get(`/bills/${bill.id}`)).body;
      expect(after).toMatchObject({
        sync_status: 'BILL_SYNCED',
        status: 'OPEN',
        deep_link_url: 'https://erp.example/bill/1',
      });
      const readyIds = (await allPages(h.api, '/bills?sync_ready=true&page_size=100')).map((b) => b.id);
      expect(readyIds).not.toContain(bill.id);
      expect((await billSync('BILL_PAYMENT_SYNC', bill.id)).body.results[0]).toMatchObject({
        status: 'REJECTED',
        reason: 'bill is not paid',
      });
    });

    it('row 2: NOT_SYNCED + PAID → BILL_SYNC then BILL_PAYMENT_SYNC → BILL_AND_PAYMENT_SYNCED', async () => {
      const bill = await billIn('NOT_SYNCED', 'PAID');
      expect((await billSync('BILL_PAYMENT_SYNC', bill.id)).body.results[0]).toMatchObject({
        status: 'REJECTED',
        reason: 'bill must be BILL_SYNCED before BILL_PAYMENT_SYNC',
      });
      expect((await billSync('BILL_SYNC', bill.id)).body.results[0].status).toBe('SYNCED');
      const mid = await allPages(h.api, '/bills?sync_ready=true&sync_status=BILL_SYNCED&page_size=100');
      expect(mid.map((b) => b.id)).toContain(bill.id);
      expect((await billSync('BILL_PAYMENT_SYNC', bill.id)).body.results[0].status).toBe('SYNCED');
      expect((await h.api.get(`/bills/${bill.id}`)).body.sync_status).toBe('BILL_AND_PAYMENT_SYNCED');
      expect((await billSync('BILL_PAYMENT_SYNC', bill.id)).body.results[0].reason).toBe('already synced');
    });

    it('row 3: BILL_SYNCED + PAID → BILL_PAYMENT_SYNC only (BILL_SYNC again is REJECTED)', async () => {
      const bill = await billIn('BILL_SYNCED', 'PAID');
      expect((await billSync('BILL_SYNC', bill.id)).body.results[0]).toMatchObject({
        status: 'REJECTED',
        reason: 'already synced',
      });
      expect((await billSync('BILL_PAYMENT_SYNC', bill.id)).body.results[0].status).toBe('SYNCED');
    });

    it('BILL_SYNCED + OPEN is not ready; paying it (control route) makes it ready for payment sync', async () => {
      const bill = await billIn('BILL_SYNCED', 'OPEN');
      expect((await allPages(h.api, '/bills?sync_ready=true&page_size=100')).map((b) => b.id)).not.toContain(
        bill.id,
      );
      const paid = await h.control.post(`/bills/${bill.id}/pay`);
      expect(paid.body.became_ready).toBe(true);
      expect((await h.api.get(`/bills/${bill.id}`)).body).toMatchObject({
        status: 'PAID',
        payment: expect.any(Object),
      });
      expect((await allPages(h.api, '/bills?sync_ready=true&page_size=100')).map((b) => b.id)).toContain(
        bill.id,
      );
      expect((await billSync('BILL_PAYMENT_SYNC', bill.id)).body.results[0].status).toBe('SYNCED');
    });

    it('a failed BILL_SYNC records the message and keeps the bill ready', async () => {
      const bill = await billIn('NOT_SYNCED', 'OPEN');
      const res = await sync({
        sync_type: 'BILL_SYNC',
        failed_syncs: [{ id: bill.id, error: { message: 'Temporary: ERP down' } }],
      });
      expect(res.body.results[0].status).toBe('FAILED');
      expect((await allPages(h.api, '/bills?sync_ready=true&page_size=100')).map((b) => b.id)).toContain(
        bill.id,
      );
      expect((await view('bills', bill.id)).state.failures[0].message).toBe('Temporary: ERP down');
    });
  });
});
