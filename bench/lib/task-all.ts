import {
  emptySummary,
  OBJECT_KINDS,
  type ObjectSyncSummary,
  sideBySide,
  syncObjects,
} from '../../src/sync/objects/index.ts';
import { emit, memoryParts } from './worker-config.ts';
import type { WorkerDeps } from './worker-deps.ts';

/**
 * `sync all` without the chart: every kind side by side as the CLI runs them (side-by-side.ts),
 * progress lines of the sum; returns the sum of the kinds' summaries (kind: the first kind) with
 * each kind's own in `kinds`. A kind that fails fails the task.
 */
export async function runAllTask(deps: WorkerDeps, connectionId: string, progressEveryMs = 200) {
  const latest = new Map<string, ObjectSyncSummary>();
  let last = 0;
  const settled = await sideBySide(OBJECT_KINDS, (kind) =>
    syncObjects(
      {
        sql: deps.sql,
        erp: deps.erp,
        platform: deps.syncPlatform,
        connectionId,
        log: deps.log,
        onProgress(p) {
          latest.set(kind, p);
          const now = Date.now();
          if (now - last < progressEveryMs) return;
          last = now;
          const sum = [...latest.values()].reduce(add, emptySummary('transactions'));
          emit({
            bench: 'progress',
            t: now,
            read: sum.read,
            posted: sum.posted,
            failed: sum.failed,
            reported: sum.reported.items,
            mem: memoryParts(),
          });
        },
      },
      kind,
      { joinable: false },
    ),
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
