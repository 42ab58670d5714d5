import { type ObjectKindName, type ObjectSyncSummary, syncObjects } from '../../src/sync/objects/index.ts';
import { emit, memoryParts } from './worker-config.ts';
import type { WorkerDeps } from './worker-deps.ts';

/**
 * A progress line at most every `everyMs`. The counts are asked for only when a line is due, so a
 * run of many kinds sums their summaries no more often than a single kind's line is printed.
 */
export function progressLines(everyMs: number): (counts: () => ObjectSyncSummary) => void {
  let last = 0;
  return (counts) => {
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    const c = counts();
    emit({
      bench: 'progress',
      t: now,
      read: c.read,
      posted: c.posted,
      failed: c.failed,
      reported: c.reported.items,
      mem: memoryParts(),
    });
  };
}

/** One kind's object sync on the worker's timed deps, as the CLI runs it; each page's summary to `onProgress`. */
export function syncKind(
  deps: WorkerDeps,
  connectionId: string,
  kind: ObjectKindName,
  options: Parameters<typeof syncObjects>[2],
  onProgress: (summary: ObjectSyncSummary) => void,
): Promise<ObjectSyncSummary> {
  return syncObjects(
    { sql: deps.sql, erp: deps.erp, platform: deps.syncPlatform, connectionId, log: deps.log, onProgress },
    kind,
    options,
  );
}
