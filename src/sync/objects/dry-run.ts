import type { Sql } from 'postgres';
import type { ErpAdapter, ErpWrite } from '../../erp/index.ts';
import type { SyncType } from '../../platform/index.ts';
import type { Outcome } from '../sync-ledger/index.ts';
import { outcomesInOutbox } from '../sync-ledger/index.ts';
import { inPhases } from './apply-page.ts';
import { kindSpec, type ObjectKindName } from './kinds.ts';
import { type PlannedItem, planPage, readObjects } from './plan-page.ts';
import type { ReadItem, SyncPlatform } from './platform-port.ts';

type Failure = Extract<Outcome, { ok: false }>;

export interface DryRunSummary {
  kind: ObjectKindName;
  read: number;
  /** Writes the ERP would accept (or would receive, when `erpChecked` is false). */
  wouldPost: number;
  /** Objects that would be reported failed, before the ERP or by its refusal, with their reasons. */
  wouldFail: number;
  /** Failures by category (user_actionable, transient, needs_integrator). */
  wouldFailByCategory: Record<string, number>;
  /** Already in the ERP or waiting in the outbox: nothing would be written again. */
  alreadyKnown: number;
  /** Objects read that call for no write now (a bill the decision table leaves alone, G23). */
  nothingToSync: number;
  wouldCreateVendorsFor: number;
  /**
   * True when the ERP checked every write as postMany would decide it (ErpAdapter.checkMany);
   * false when the adapter cannot check, so its refusals are not foreseen.
   */
  erpChecked: boolean;
  sampleFailures: { objectId: string; message: string }[];
}

/** One object's predicted outcome, for a caller that wants them all. */
export interface DryRunPrediction {
  objectId: string;
  syncType: SyncType;
  outcome: { ok: true } | Failure;
}

export interface DryRunDeps {
  sql: Sql;
  erp: ErpAdapter;
  platform: SyncPlatform;
  connectionId: string;
  onPrediction?: (prediction: DryRunPrediction) => void;
}

/**
 * What a sync of one kind would do, without writing anywhere: reads the ready objects and makes
 * the real run's decisions (page-step.ts processPage) on them: vendor creation's, the plan's,
 * the ERP's (ErpAdapter.checkMany, which answers what postMany would, writing nothing) and the
 * phases' (a bill payment waits for its bill: apply-page.ts inPhases). It claims nothing, posts
 * nothing to the ERP, creates no vendor and reports nothing to the platform.
 */
export async function dryRunObjects(deps: DryRunDeps, kind: ObjectKindName): Promise<DryRunSummary> {
  const summary: DryRunSummary = {
    kind,
    read: 0,
    wouldPost: 0,
    wouldFail: 0,
    wouldFailByCategory: {},
    alreadyKnown: 0,
    nothingToSync: 0,
    wouldCreateVendorsFor: 0,
    erpChecked: typeof deps.erp.checkMany === 'function',
    sampleFailures: [],
  };
  for await (const page of deps.platform.readyPages(kind)) {
    summary.read += page.items.length;
    await dryRunPage(deps, kind, page.items, summary);
  }
  return summary;
}

async function dryRunPage(
  deps: DryRunDeps,
  kind: ObjectKindName,
  items: readonly ReadItem[],
  summary: DryRunSummary,
): Promise<void> {
  const spec = kindSpec(kind);
  const prepared = spec.prepare
    ? await spec.prepare.check(deps.erp, readObjects(items))
    : { failures: [], wouldCreateVendorsFor: 0 };
  summary.wouldCreateVendorsFor += prepared.wouldCreateVendorsFor;
  const plan = planPage(spec, items, prepared.failures);
  summary.nothingToSync += plan.nothingToSync;
  const planned = plan.items;
  const known = await outcomesInOutbox(
    deps.sql,
    deps.connectionId,
    planned.map((i) => i.objectId),
  );
  const knownKeys = new Set(known.map((k) => `${k.sync_type}:${k.object_id}`));
  // Writes the ERP accepted in an earlier phase: a payment is checked with its bill before it.
  const accepted = new Map<string, ErpWrite>();
  await inPhases(planned, async (syncType, runnable) => {
    const due = runnable.filter((i) => {
      if (!knownKeys.has(`${syncType}:${i.objectId}`)) return true;
      summary.alreadyKnown++;
      return false;
    });
    const outcomes = await decide(deps.erp, due, accepted);
    for (const [index, outcome] of outcomes.entries()) {
      const item = due[index]!;
      deps.onPrediction?.({ objectId: item.objectId, syncType: item.syncType, outcome });
      if (outcome.ok) {
        summary.wouldPost++;
        if ('write' in item) accepted.set(item.objectId, item.write);
        continue;
      }
      summary.wouldFail++;
      summary.wouldFailByCategory[outcome.category] =
        (summary.wouldFailByCategory[outcome.category] ?? 0) + 1;
      if (summary.sampleFailures.length < 5)
        summary.sampleFailures.push({ objectId: item.objectId, message: outcome.message });
    }
    return outcomes.map((o, index) => ({ objectId: due[index]!.objectId, ok: o.ok }));
  });
}

/** The outcome of each due item, in order: its planned failure, or the ERP's check of its write. */
async function decide(
  erp: ErpAdapter,
  due: readonly PlannedItem[],
  accepted: ReadonlyMap<string, ErpWrite>,
): Promise<({ ok: true } | Failure)[]> {
  const writes = due.flatMap((i) => ('write' in i ? [i.write] : []));
  const bills = writes.flatMap((w) => {
    const bill = w.kind === 'bill_payment' ? accepted.get(w.billObjectId) : undefined;
    return bill?.kind === 'bill' ? [bill] : [];
  });
  const checked = erp.checkMany && writes.length > 0 ? await erp.checkMany([...bills, ...writes]) : [];
  const answers = checked.slice(bills.length);
  let next = 0;
  return due.map((item) => {
    if ('failure' in item) return item.failure;
    const answer = answers[next++];
    if (!answer || answer.ok) return { ok: true };
    return {
      objectId: item.objectId,
      ok: false,
      category: answer.error.category,
      message: answer.error.message,
    };
  });
}
