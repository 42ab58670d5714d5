import { describe, expect, it } from 'vitest';
import { trialBalance, trialBalanceTotals } from '../../src/erp/index.ts';
import { silentLogger } from '../../src/log.ts';
import { KIND_SPECS, OBJECT_KINDS, syncObjects } from '../../src/sync/objects/index.ts';
import { useSyncWorld } from '../support/sync-world.ts';

const world = useSyncWorld();

interface Effects {
  marks: { object_id: string; sync_type: string; result: string }[];
  summary: { synced_more_than_once: unknown[] };
}

async function runAll() {
  const summaries = [];
  for (const kind of OBJECT_KINDS) {
    summaries.push(
      await syncObjects(
        {
          sql: world.db.sql,
          erp: world.erp,
          platform: world.syncPlatform,
          connectionId: world.connectionId,
          log: silentLogger,
        },
        kind,
        { slices: 3 },
      ),
    );
  }
  return summaries;
}

async function erpEntryCount(): Promise<number> {
  const [row] = await world.db
    .sql`select count(*)::int as n from ${world.db.sql(world.ledgerSchema)}.journal_entries`;
  return row!.n as number;
}

describe('object sync end to end (stub + built-in ledger)', () => {
  it('F14/F16, rules 1-3, decision table: every ready object ends synced or failed with a categorized message', async () => {
    const seeded = (await world.seed({
      seed: 11,
      transactions: 400,
      reimbursements: 60,
      transfers: 20,
      cashbacks: 20,
      bills: 120,
    })) as {
      ready: Record<string, number>;
    };
    const summaries = await runAll();
    const readyAtStart = Object.values(seeded.ready).reduce((a, b) => a + b, 0);
    expect(readyAtStart).toBeGreaterThan(300);
    expect(summaries.reduce((n, s) => n + s.read, 0)).toBe(readyAtStart);
    expect(summaries.find((s) => s.kind === 'transactions')?.vendorsCreated).toBeGreaterThan(0);

    const effects = await world.control<Effects>(
      'GET',
      '/__stub/effects?include=marks&summary=true&limit=100000',
    );
    expect(effects.summary.synced_more_than_once).toEqual([]);
    const marked = new Map<string, string[]>();
    for (const m of effects.marks)
      marked.set(`${m.sync_type}:${m.object_id}`, [
        ...(marked.get(`${m.sync_type}:${m.object_id}`) ?? []),
        m.result,
      ]);
    // Every claimed ledger row was reported, and every report was accepted or failed, not rejected.
    const rows = await world.db
      .sql`select object_id, sync_type, state, outcome, error_category, error_message from sync_ledger`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.state, `${row.sync_type} ${row.object_id}`).toBe('REPORTED');
      const results = marked.get(`${row.sync_type}:${row.object_id}`) ?? [];
      expect(results, `${row.sync_type} ${row.object_id}`).toEqual([
        row.outcome === 'success' ? 'SYNCED' : 'FAILED',
      ]);
      if (row.outcome === 'failure') {
        expect(row.error_category).toMatch(/^(user_actionable|transient|needs_integrator)$/);
        expect(row.error_message).toMatch(/^(Action needed|Temporary problem|Contact your integrator): /);
      }
    }
    // Decision table: a paid, never-synced bill was reported as a bill, then as a payment.
    const billSyncs = rows
      .filter((r) => r.sync_type === 'BILL_SYNC' && r.outcome === 'success')
      .map((r) => r.object_id);
    const payments = rows
      .filter((r) => r.sync_type === 'BILL_PAYMENT_SYNC' && r.outcome === 'success')
      .map((r) => r.object_id);
    expect(billSyncs.length).toBeGreaterThan(0);
    expect(payments.length).toBeGreaterThan(0);
    expect(payments.some((id) => billSyncs.includes(id))).toBe(true);

    // Nothing left ready on the platform except objects whose failure was reported.
    const failed = new Set(rows.filter((r) => r.outcome === 'failure').map((r) => r.object_id));
    for await (const t of world.platform.objects.ready(KIND_SPECS.transactions.list)) {
      if (t.ok)
        expect(failed.has(t.value.id), `ready transaction ${t.value.id} was not reported failed`).toBe(true);
    }
    // The books balance, per currency.
    const totals = trialBalanceTotals(await trialBalance(world.db.sql, world.ledgerSchema));
    for (const [currency, total] of totals) expect(total, currency).toBe(0);
  });

  it('a second run posts nothing new to the ERP and marks nothing synced twice', async () => {
    const before = await erpEntryCount();
    const summaries = await runAll();
    expect(summaries.reduce((n, s) => n + s.posted, 0)).toBe(0);
    expect(await erpEntryCount()).toBe(before);
    const effects = await world.control<Effects>(
      'GET',
      '/__stub/effects?include=marks&summary=true&limit=100000',
    );
    expect(effects.summary.synced_more_than_once).toEqual([]);
  });
});
