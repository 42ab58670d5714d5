import type { Sql } from 'postgres';
import type { Logger } from '../../log.ts';
import { Adopter } from './adopter.ts';
import { type Change, diffKind, type Plan, rowOf, stepFor } from './diff.ts';
import { applyLifecycle, type LifecycleStep } from './lifecycle.ts';
import type { DesiredItem, KindOps, MappedRow, MapScope, RemoteItem } from './model.ts';
import type { ProgressReporter } from './progress.ts';
import { forgetRow, loadRows, recordChange, recordFailure, recordMapped } from './store.ts';
import { countChange } from './summary.ts';
import type { KindSummary, MirrorAction } from './types.ts';
import { uploadInBatches } from './upload-batches.ts';

export interface ScopeRun {
  sql: Sql;
  log: Logger;
  scope: MapScope;
  ops: KindOps;
  /** Every ERP item of the scope. */
  items: readonly DesiredItem[];
  summary: KindSummary;
  dryRun: boolean;
  progress: ProgressReporter;
  /** Throws when the run must stop (abort signal). */
  beforeCall: () => void;
  /** Plan against no rows: the parent is not mirrored yet (dry run of a new field's options). */
  assumeEmpty?: boolean;
}

/**
 * Mirrors one scope (a kind, or the options of one field): diff against id_map, upload the new
 * items, then PATCH/DELETE the rest, recording every outcome as it happens so that a run killed
 * at any point resumes where it stopped.
 */
export async function mirrorScope(run: ScopeRun): Promise<void> {
  const rows = run.assumeEmpty ? new Map<string, MappedRow>() : await loadRows(run.sql, run.scope);
  const plan = diffKind(run.items, rows, { visibility: run.ops.visibility });
  run.summary.unchanged += plan.unchanged;
  for (const known of plan.knownFailures) fail(run, known.remoteId, known.action, known.reason);
  const total = plan.creates.length + plan.changes.length + plan.deactivations.length;
  run.progress.report(run.scope.kind, 'planned', 0, total, true);
  if (run.dryRun) return countPlan(plan, run.summary, run.ops.visibility);

  const tally = { done: 0, total };
  const followUps = await createAll(run, plan.creates, tally);
  const steps: LifecycleStep[] = [
    ...plan.changes.map((change): LifecycleStep => ({ type: 'change', change })),
    ...followUps.steps,
    ...plan.deactivations.map((deactivation): LifecycleStep => ({ type: 'deactivate', deactivation })),
  ];
  await changeAll(run, steps, followUps.completingCreation, tally);
  run.progress.report(run.scope.kind, 'done', total, total, true);
}

interface Tally {
  done: number;
  total: number;
}

/**
 * Uploads the new items and records each outcome. Returns the PATCHes some of them still need:
 * hidden in the ERP (a new item is always VISIBLE), or adopted with other content or inactive.
 */
async function createAll(
  run: ScopeRun,
  creates: DesiredItem[],
  tally: Tally,
): Promise<{ steps: LifecycleStep[]; completingCreation: Set<Change> }> {
  const { summary, scope } = run;
  const steps: LifecycleStep[] = [];
  const completingCreation = new Set<Change>();
  const byId = new Map(creates.map((i) => [i.remoteId, i]));
  const settle = (remote: RemoteItem[], created: boolean) => {
    for (const item of remote) {
      const wanted = byId.get(item.remoteId);
      const step = wanted ? stepFor(wanted, rowOf(item), { visibility: run.ops.visibility }) : null;
      if (!step || typeof step !== 'object') continue;
      steps.push({ type: 'change', change: step });
      if (created) completingCreation.add(step);
    }
    tally.done += remote.length;
    run.progress.report(scope.kind, 'creating', tally.done, tally.total);
  };
  const refuse = (items: Array<{ item: DesiredItem; reason: string }>) => {
    for (const { item, reason } of items) fail(run, item.remoteId, 'create', reason);
    tally.done += items.length;
  };
  await uploadInBatches(
    run.ops,
    creates,
    {
      beforeCall: run.beforeCall,
      created: async (remote) => {
        await recordMapped(run.sql, scope, remote);
        summary.created += remote.length;
        settle(remote, true);
      },
      adopted: async (remote) => {
        await recordMapped(run.sql, scope, remote);
        summary.adopted += remote.length;
        run.log.info(
          { kind: scope.kind, adopted: remote.length },
          'adopted items the platform already held (F12)',
        );
        settle(remote, false);
      },
      refused: async (refused) => {
        if (refused.length === 0) return;
        const rows = refused.map(({ item, reason }) => ({
          remoteId: item.remoteId,
          hash: item.hash,
          reason,
        }));
        await recordFailure(run.sql, scope, rows);
        refuse(refused);
      },
      waiting: refuse,
      ignored: (foreign) => {
        // docs/platform.md F41: someone else's items; recording them would later deactivate them.
        run.log.warn(
          { kind: scope.kind, count: foreign.length, remoteIds: foreign.slice(0, 20).map((f) => f.remoteId) },
          'upload answer named items that were not sent; ignored',
        );
      },
    },
    new Adopter(run.ops),
  );
  return { steps, completingCreation };
}

/** PATCHes and DELETEs, each recorded as soon as the platform applied it. */
async function changeAll(
  run: ScopeRun,
  steps: LifecycleStep[],
  completingCreation: Set<Change>,
  tally: Tally,
) {
  const { summary, scope } = run;
  await applyLifecycle(run.ops, steps, {
    beforeCall: run.beforeCall,
    applied: async (step, row) => {
      await recordChange(run.sql, scope, row);
      if (step.type === 'change') countChange(summary, step.change, completingCreation.has(step.change));
      else summary.deactivated++;
      run.progress.report(scope.kind, 'changing', ++tally.done, tally.total);
    },
    refused: async (step, reason) => {
      const { remoteId, hash } = stepIdentity(step);
      await recordFailure(run.sql, scope, [{ remoteId, hash, reason }]);
      fail(run, remoteId, actionOf(step), reason);
    },
    missing: async (step, reason) => {
      const { remoteId, svcId } = stepIdentity(step);
      await forgetRow(run.sql, scope, remoteId, svcId);
      fail(
        run,
        remoteId,
        actionOf(step),
        `not found on the platform (${reason}); uploaded again on the next run`,
      );
    },
  });
}

function countPlan(plan: Plan, summary: KindSummary, visibility: boolean): void {
  summary.created += plan.creates.length;
  summary.hidden += visibility ? plan.creates.filter((i) => i.hidden).length : 0;
  for (const change of plan.changes) countChange(summary, change);
  summary.deactivated += plan.deactivations.length;
}

function fail(run: ScopeRun, remoteId: string, action: MirrorAction, reason: string): void {
  const parent = run.scope.parentRemoteId;
  run.summary.failed.push({ remoteId, ...(parent ? { parentRemoteId: parent } : {}), action, reason });
}

function stepIdentity(step: LifecycleStep): { remoteId: string; svcId: string; hash: string } {
  if (step.type === 'change') {
    return { remoteId: step.change.item.remoteId, svcId: step.change.svcId, hash: step.change.item.hash };
  }
  // A failed DELETE records no refused content: '' never equals a content hash.
  return { remoteId: step.deactivation.remoteId, svcId: step.deactivation.svcId, hash: '' };
}

function actionOf(step: LifecycleStep): MirrorAction {
  if (step.type === 'deactivate') return 'deactivate';
  const change: Change = step.change;
  if (change.content) return 'update';
  if (change.reactivate) return 'reactivate';
  return change.visibility === 'HIDDEN' ? 'hide' : 'unhide';
}
