import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { statusReport } from '../../src/operations/index.ts';
import { KIND_SPECS, syncObjects } from '../../src/sync/objects/index.ts';
import { acknowledge, findExternalSyncs, reconcile } from '../../src/sync/reconcile/reconcile.ts';
import { useSyncWorld } from '../support/sync-world.ts';

const world = useSyncWorld();

const syncTransactions = () =>
  syncObjects(
    {
      sql: world.db.sql,
      erp: world.erp,
      platform: world.syncPlatform,
      connectionId: world.connectionId,
      log: silentLogger,
    },
    'transactions',
  );

async function readyIds(limit: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of world.platform.objects.ready(KIND_SPECS.transactions.list)) {
    if (item.ok && !item.value.requires_accounting_vendor_creation_to_sync) ids.push(item.value.id);
    if (ids.length >= limit) break;
  }
  return ids;
}

describe('poisoned objects and reconcile', () => {
  it('a transaction that fails its schema becomes one failed_syncs entry; the rest of its page syncs', async () => {
    await world.seed({
      seed: 31,
      transactions: 60,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 0,
      ready_fraction: 1,
      uncoded_fraction: 0,
      unknown_coding_fraction: 0,
    });
    const [poisoned] = await readyIds(1);
    await world.control('PATCH', `/__stub/objects/transaction/${poisoned}`, { amount: 'twelve dollars' });
    const summary = await syncTransactions();
    const [row] = await world.db
      .sql`select state, outcome, error_category, error_message from sync_ledger where object_id = ${poisoned!}`;
    expect(row).toMatchObject({ state: 'REPORTED', outcome: 'failure', error_category: 'needs_integrator' });
    expect(row?.error_message).toMatch(
      /^Contact your integrator: The card transaction could not be read\. .*Give your integrator the reference ERP-/,
    );
    const [others] = await world.db
      .sql`select count(*)::int as n from sync_ledger where object_id <> ${poisoned!} and outcome = 'success'`;
    expect(others?.n).toBe(summary.read - 1);
    const detail = await world.control<{ state: { failures: { message: string }[] } }>(
      'GET',
      `/__stub/objects/transaction/${poisoned}`,
    );
    expect(detail.state.failures.at(-1)?.message).toBe(row?.error_message);
  });

  it('rule 1: objects marked synced outside ledgersync (manual export) are listed by reconcile until acknowledged', async () => {
    // What the seed pre-synced, acknowledged: this test follows three objects of its own.
    await reconcile(world.db.sql, world.platform, world.connectionId);
    await acknowledge(world.db.sql, world.connectionId, null);
    await world.seed({
      seed: 32,
      append: true,
      transactions: 20,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 0,
      ready_fraction: 1,
    });
    const external = await readyIds(3);
    await world.platform.syncs.postResults({
      idempotency_key: 'manual-export-1',
      sync_type: 'TRANSACTION_SYNC',
      successful_syncs: external.map((id) => ({ id, reference_id: `MANUAL-${id}` })),
    });
    await syncTransactions();
    const ids = async () =>
      (await reconcile(world.db.sql, world.platform, world.connectionId)).map((f) => f.objectId).sort();
    expect(await ids()).toEqual([...external].sort());
    // Read again, the listing is the same: reading it acknowledges nothing.
    expect(await ids()).toEqual([...external].sort());
    const [stored] = await world.db
      .sql`select count(*)::int as n from external_syncs where object_id in ${world.db.sql(external)}`;
    expect(stored?.n).toBe(3);

    const first = await acknowledge(world.db.sql, world.connectionId, [external[0]!, 'no-such-object']);
    expect(first).toEqual({ acknowledged: 1, notFound: ['no-such-object'] });
    expect(await ids()).toEqual(external.slice(1).sort());
    await acknowledge(world.db.sql, world.connectionId, null);
    expect(await ids()).toEqual([]);
  });

  it('rule 1: status counts objects synced outside ledgersync that reconcile never listed', async () => {
    await world.seed({
      seed: 33,
      append: true,
      transactions: 10,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 0,
      ready_fraction: 1,
    });
    const external = await readyIds(2);
    await world.platform.syncs.postResults({
      idempotency_key: 'manual-export-2',
      sync_type: 'TRANSACTION_SYNC',
      successful_syncs: external.map((id) => ({ id, reference_id: `MANUAL-${id}` })),
    });
    const count = async () =>
      (await statusReport(world.db.sql, world.connectionId, { queues: [] })).externalSyncs;
    expect(await count()).toBe(0);
    // What `ledgersync status` does before its report (src/commands/status.ts).
    await findExternalSyncs(world.db.sql, world.platform, world.connectionId);
    expect(await count()).toBe(2);
  });
});
