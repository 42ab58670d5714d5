import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import type { Bill, FieldSelection } from '../../../../src/platform/index.ts';
import { applyPage } from '../../../../src/sync/objects/apply-page.ts';
import { KIND_SPECS } from '../../../../src/sync/objects/kinds.ts';
import { planPage } from '../../../../src/sync/objects/plan-page.ts';
import { syncObjects } from '../../../../src/sync/objects/sync-objects.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';

/**
 * docs/platform.md G23: the platform takes BILL_PAYMENT_SYNC only for a bill already BILL_SYNCED.
 * A payment whose bill is not BILL_SYNCED (its bill failed, or its bill's result still waits in
 * the outbox) waits unclaimed and is never reported; every payment of a bill that synced is posted
 * and reported once.
 */
const world = useSyncWorld();

interface Mark {
  seq: number;
  object_id: string;
  sync_type: string;
  result: string;
}
interface Effects {
  marks: Mark[];
  summary: { synced_more_than_once: unknown[] };
}
interface BillView {
  state: { sync_status: string; paid: boolean };
}

const deps = () => ({
  sql: world.db.sql,
  erp: world.erp,
  platform: world.syncPlatform,
  connectionId: world.connectionId,
  log: silentLogger,
});

const effects = () =>
  world.control<Effects>('GET', '/__stub/effects?include=marks&summary=true&limit=100000');

describe('a bill payment waits until its bill is BILL_SYNCED', () => {
  it('whatever order the page lists the bills in, a payment whose bill failed or is not acknowledged is left unclaimed', async () => {
    const sel = (type: string, id: string): FieldSelection => ({
      id: `s-${id}`,
      external_id: id,
      name: id,
      type: null,
      category_info: { id: type, external_id: type, name: type, type },
    });
    const bill = (id: string, over: Partial<Bill>): Bill => ({
      id,
      invoice_number: id.toUpperCase(),
      entity_id: null,
      amount: { amount: 10_000, currency_code: 'USD' },
      status: 'PAID',
      sync_status: 'NOT_SYNCED',
      created_at: '2026-02-01T00:00:00Z',
      paid_at: '2026-02-10T00:00:00Z',
      accounting_field_selections: [sel('MERCHANT', 'V-1'), sel('GL_ACCOUNT', 'gl-6000')],
      line_items: [],
      ...over,
    });
    // Listed first: a bill the platform already shows BILL_SYNCED, waiting for its payment only.
    const paymentOnly = bill('bill-payment-only', { sync_status: 'BILL_SYNCED' });
    // Uncoded: its BILL_SYNC fails in this page.
    const uncoded = bill('bill-uncoded', { accounting_field_selections: [] });
    // Its BILL_SYNC outcome is known and waits in the outbox (the platform has not acknowledged it).
    const unacknowledged = bill('bill-unacknowledged', {});
    await world.db.sql`
      insert into sync_ledger (connection_id, object_id, sync_type, state, outcome, reference_id)
      values (${world.connectionId}, ${unacknowledged.id}, 'BILL_SYNC', 'IN_ERP', 'success', 'BILL-0000001')`;

    const plan = planPage(
      KIND_SPECS.bills,
      [paymentOnly, uncoded, unacknowledged].map((value) => ({ ok: true as const, value })),
    );
    expect(plan.items.map((i) => [i.objectId, i.syncType])).toEqual([
      ['bill-payment-only', 'BILL_PAYMENT_SYNC'],
      ['bill-uncoded', 'BILL_SYNC'],
      ['bill-uncoded', 'BILL_PAYMENT_SYNC'],
      ['bill-unacknowledged', 'BILL_SYNC'],
      ['bill-unacknowledged', 'BILL_PAYMENT_SYNC'],
    ]);
    await applyPage(
      { sql: world.db.sql, erp: world.erp, connectionId: world.connectionId, log: silentLogger },
      plan.items,
    );

    const rows = await world.db.sql<{ object_id: string; sync_type: string; state: string }[]>`
      select object_id, sync_type, state from sync_ledger
      where object_id like 'bill-%' order by object_id, sync_type`;
    expect(rows.map((r) => `${r.object_id} ${r.sync_type} ${r.state}`)).toEqual([
      // Attempted (its bill is BILL_SYNCED on the platform): the ERP's answer is recorded.
      'bill-payment-only BILL_PAYMENT_SYNC FAILED',
      'bill-unacknowledged BILL_SYNC IN_ERP',
      'bill-uncoded BILL_SYNC FAILED',
    ]);
    await world.db.sql`delete from sync_ledger where object_id like 'bill-%'`;
  });

  it('after a run in which some bills fail, a second run reports no payment of theirs; every synced bill’s payment is posted once', async () => {
    await world.seed({
      seed: 3,
      transactions: 0,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 400,
      uncoded_fraction: 0.3,
    });
    // Three slices read side by side: pages mix the bill states in every order.
    await syncObjects(deps(), 'bills', { slices: 3 });
    const afterFirst = await effects();
    const firstSeq = Math.max(0, ...afterFirst.marks.map((m) => m.seq));
    await syncObjects(deps(), 'bills', { slices: 3 });
    const all = await effects();
    const second = all.marks.filter((m) => m.seq > firstSeq);

    const failedBills = (
      await world.db.sql<{ object_id: string }[]>`
        select object_id from sync_ledger where sync_type = 'BILL_SYNC' and outcome = 'failure'`
    ).map((r) => r.object_id);
    expect(failedBills.length, 'the seeded world has bills that fail (uncoded)').toBeGreaterThan(10);
    const failed = new Set(failedBills);

    // The second run failed the same bills again and sent nothing for their payments.
    expect(second.filter((m) => m.sync_type === 'BILL_SYNC' && failed.has(m.object_id)).length).toBe(
      failed.size,
    );
    expect(second.filter((m) => m.sync_type === 'BILL_PAYMENT_SYNC' && failed.has(m.object_id))).toEqual([]);
    // Nor did the first: no payment of a bill that is not BILL_SYNCED reached the platform.
    expect(all.marks.filter((m) => m.sync_type === 'BILL_PAYMENT_SYNC' && failed.has(m.object_id))).toEqual(
      [],
    );
    expect(all.marks.filter((m) => m.result === 'REJECTED')).toEqual([]);
    expect(all.summary.synced_more_than_once).toEqual([]);

    // Every bill this run synced that is paid has its payment posted to the ERP and marked once.
    const syncedBills = (
      await world.db.sql<{ object_id: string }[]>`
        select object_id from sync_ledger where sync_type = 'BILL_SYNC' and outcome = 'success'`
    ).map((r) => r.object_id);
    const paid: string[] = [];
    for (const id of syncedBills) {
      const view = await world.control<BillView>('GET', `/__stub/objects/bill/${id}`);
      if (view.state.paid) paid.push(id);
    }
    expect(paid.length, 'some bills were synced and paid').toBeGreaterThan(5);
    const ledger = world.db.sql(world.ledgerSchema);
    for (const id of paid) {
      const marks = all.marks.filter((m) => m.object_id === id && m.sync_type === 'BILL_PAYMENT_SYNC');
      expect(
        marks.map((m) => m.result),
        id,
      ).toEqual(['SYNCED']);
      const [erp] = await world.db.sql<{ n: number }[]>`
        select count(*)::int as n from ${ledger}.postings where kind = 'bill_payment' and object_id = ${id}`;
      expect(erp!.n, id).toBe(1);
      const view = await world.control<BillView>('GET', `/__stub/objects/bill/${id}`);
      expect(view.state.sync_status, id).toBe('BILL_AND_PAYMENT_SYNCED');
    }
  });
});
