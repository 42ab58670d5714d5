import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import { type DryRunPrediction, dryRunObjects } from '../../../../src/sync/objects/dry-run.ts';
import { OBJECT_KINDS, type ObjectKindName } from '../../../../src/sync/objects/kinds.ts';
import { syncObjects } from '../../../../src/sync/objects/sync-objects.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';

/**
 * A dry run makes the real run's decisions: on one seeded world (the mix `erp seed-stub-world`
 * seeds: ERP refusals, vendor creation, bills and their payments, docs/platform.md G23 and G26),
 * what `sync <kind> --dry-run` predicts for each object is what the real sync then does to it.
 */
const world = useSyncWorld();

interface LedgerRow {
  object_id: string;
  sync_type: string;
  outcome: 'success' | 'failure';
  error_message: string | null;
}

const key = (objectId: string, syncType: string) => `${syncType} ${objectId}`;

describe('sync --dry-run predicts the real run', () => {
  it('G23, G26: per kind, every object the dry run predicts posted or failed ends so, with the same message', async () => {
    await world.seed({
      seed: 2026,
      transactions: 200,
      reimbursements: 25,
      transfers: 20,
      cashbacks: 20,
      bills: 40,
    });
    const predicted = new Map<string, string | null>();
    const failuresByKind = new Map<ObjectKindName, number>();
    for (const kind of OBJECT_KINDS) {
      const onPrediction = (p: DryRunPrediction) =>
        predicted.set(key(p.objectId, p.syncType), p.outcome.ok ? null : p.outcome.message);
      const dry = await dryRunObjects(
        {
          sql: world.db.sql,
          erp: world.erp,
          platform: world.syncPlatform,
          connectionId: world.connectionId,
          onPrediction,
        },
        kind,
      );
      expect(dry.erpChecked).toBe(true);
      failuresByKind.set(kind, dry.wouldFail);
    }
    const [before] = await world.db.sql<{ n: number }[]>`select count(*)::int as n from sync_ledger`;
    expect(before!.n).toBe(0);

    for (const kind of OBJECT_KINDS) {
      const real = await syncObjects(
        {
          sql: world.db.sql,
          erp: world.erp,
          platform: world.syncPlatform,
          connectionId: world.connectionId,
          log: silentLogger,
        },
        kind,
      );
      expect(real.failed, kind).toBe(failuresByKind.get(kind));
    }
    const rows = await world.db.sql<LedgerRow[]>`
      select object_id, sync_type, outcome, error_message from sync_ledger where connection_id = ${world.connectionId}`;
    const actual = new Map(
      rows.map((r) => [key(r.object_id, r.sync_type), r.outcome === 'success' ? null : r.error_message]),
    );
    // The seeded world has refusals of every sort to predict, and objects that post.
    const failures = [...actual.values()].filter((m) => m !== null);
    expect(failures.length).toBeGreaterThan(10);
    expect(actual.size - failures.length).toBeGreaterThan(10);
    expect(Object.fromEntries(predicted)).toEqual(Object.fromEntries(actual));
  });
});
