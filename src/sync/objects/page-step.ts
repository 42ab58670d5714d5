import { applyPage } from './apply-page.ts';
import { kindSpec, type ObjectKindName } from './kinds.ts';
import { planPage, readObjects } from './plan-page.ts';
import type { ReadItem } from './platform-port.ts';
import type { ObjectSyncDeps, ObjectSyncSummary } from './run-modes/run-context.ts';

/**
 * The step every run takes with a page it read, whatever the run (bulk, joined share, press,
 * replay): prepare, plan, write into the ERP and record each outcome. Adds to `summary` and
 * returns how many outcomes this page recorded for reporting (posted or failed). Pages run side
 * by side, so a caller counts what is due to be reported from this return, never from `summary`
 * before and after (that would count the pages that finished meanwhile too).
 */
export async function processPage(
  deps: ObjectSyncDeps,
  kind: ObjectKindName,
  items: ReadItem[],
  summary: ObjectSyncSummary,
  syncRequestId?: string,
): Promise<number> {
  const spec = kindSpec(kind);
  summary.read += items.length;
  // A kind's preparation (vendor creation, docs/platform.md G26) comes first; what it fails is
  // reported failed and not planned.
  const prepared = spec.prepare
    ? await spec.prepare.run(deps, readObjects(items))
    : { failures: [], vendorsCreated: 0 };
  summary.vendorsCreated += prepared.vendorsCreated;
  const plan = planPage(spec, items, prepared.failures);
  summary.unreadable += plan.unreadable.length;
  summary.nothingToSync += plan.nothingToSync;
  if (plan.unreadable.length > 0)
    deps.log.warn(
      { kind, errors: plan.unreadable.slice(0, 3) },
      'objects without a readable id were skipped',
    );
  const counts = await applyPage(
    { sql: deps.sql, erp: deps.erp, connectionId: deps.connectionId, syncRequestId, log: deps.log },
    plan.items,
  );
  summary.posted += counts.posted;
  summary.failed += counts.failed;
  summary.skipped += counts.skipped;
  return counts.posted + counts.failed;
}
