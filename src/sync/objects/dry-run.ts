import type { Sql } from 'postgres';
import { outcomesInOutbox } from '../sync-ledger/object-lookups.ts';
import { KIND_SPECS, type ObjectKindName } from './kinds.ts';
import { planPage } from './plan-page.ts';
import type { SyncPlatform } from './platform-port.ts';

export interface DryRunSummary {
  kind: ObjectKindName;
  read: number;
  /** Writes that would go to the ERP (the ERP may still refuse some; nothing is written to learn that). */
  wouldPost: number;
  /** Objects that would be reported failed before reaching the ERP, with their reasons. */
  wouldFail: number;
  /** Already in the ERP or waiting in the outbox: nothing would be written again. */
  alreadyKnown: number;
  wouldCreateVendorsFor: number;
  sampleFailures: { objectId: string; message: string }[];
}

/**
 * What a sync of one kind would do, without writing anywhere: reads the ready objects, plans
 * their ERP writes and checks the sync ledger, but claims nothing, posts nothing to the ERP and
 * reports nothing to the platform.
 */
export async function dryRunObjects(
  sql: Sql,
  platform: SyncPlatform,
  connectionId: string,
  kind: ObjectKindName,
): Promise<DryRunSummary> {
  const spec = KIND_SPECS[kind];
  const summary: DryRunSummary = {
    kind,
    read: 0,
    wouldPost: 0,
    wouldFail: 0,
    alreadyKnown: 0,
    wouldCreateVendorsFor: 0,
    sampleFailures: [],
  };
  for await (const page of platform.readyPages(kind, { slices: 1 })) {
    summary.read += page.items.length;
    for (const item of page.items) {
      if (
        item.ok &&
        (item.value as { requires_accounting_vendor_creation_to_sync?: boolean })
          .requires_accounting_vendor_creation_to_sync
      ) {
        summary.wouldCreateVendorsFor++;
      }
    }
    const plan = planPage(spec, page.items);
    const ids = plan.items.map((i) => i.objectId);
    const known = await outcomesInOutbox(sql, connectionId, ids);
    const knownKeys = new Set(known.map((k) => `${k.sync_type}:${k.object_id}`));
    for (const item of plan.items) {
      if (knownKeys.has(`${item.syncType}:${item.objectId}`)) summary.alreadyKnown++;
      else if ('write' in item) summary.wouldPost++;
      else {
        summary.wouldFail++;
        if (summary.sampleFailures.length < 5)
          summary.sampleFailures.push({ objectId: item.objectId, message: item.failure.message });
      }
    }
  }
  return summary;
}
