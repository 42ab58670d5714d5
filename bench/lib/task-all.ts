import {
  emptySummary,
  OBJECT_KINDS,
  type ObjectSyncSummary,
  sideBySide,
} from '../../src/sync/objects/index.ts';
import { progressLines, syncKind } from './sync-progress.ts';
import type { WorkerDeps } from './worker-deps.ts';

/**
 * `sync all` without the chart: every kind side by side as the CLI runs them (side-by-side.ts),
 * progress lines of the sum; returns the sum of the kinds' summaries (kind: the first kind) with
 * each kind's own in `kinds`. A kind that fails fails the task.
 */
export async function runAllTask(deps: WorkerDeps, connectionId: string, progressEveryMs = 200) {
  const latest = new Map<string, ObjectSyncSummary>();
  const line = progressLines(progressEveryMs);
  const settled = await sideBySide(OBJECT_KINDS, (kind) =>
    syncKind(deps, connectionId, kind, { joinable: false }, (summary) => {
      latest.set(kind, summary);
      line(() => [...latest.values()].reduce(add, emptySummary('transactions')));
    }),
  );
  const kinds = settled.map((s) => {
    if (s.status === 'rejected') throw s.reason;
    return s.value;
  });
  return { ...kinds.reduce(add, emptySummary('transactions')), kinds };
}

function add(a: ObjectSyncSummary, b: ObjectSyncSummary): ObjectSyncSummary {
  return {
    ...a,
    read: a.read + b.read,
    posted: a.posted + b.posted,
    failed: a.failed + b.failed,
    skipped: a.skipped + b.skipped,
    reported: {
      batches: a.reported.batches + b.reported.batches,
      items: a.reported.items + b.reported.items,
      rejected: a.reported.rejected + b.reported.rejected,
    },
  };
}
