import { progressLines, syncKind } from './sync-progress.ts';
import type { WorkerConfig } from './worker-config.ts';
import type { WorkerDeps } from './worker-deps.ts';

/** One object sync of one kind, with progress lines; returns its summary. */
export async function runSyncTask(config: WorkerConfig, deps: WorkerDeps, connectionId: string) {
  const sync = config.sync;
  if (!sync) throw new Error('task sync needs BENCH_WORKER.sync');
  const line = progressLines(config.progressEveryMs ?? 200);
  return syncKind(
    deps,
    connectionId,
    sync.kind,
    {
      ...(sync.slices ? { slices: sync.slices } : {}),
      ...(sync.readAhead ? { readAhead: sync.readAhead } : {}),
      ...(sync.pageConcurrency ? { pageConcurrency: sync.pageConcurrency } : {}),
    },
    (summary) => line(() => summary),
  );
}
