import { syncObjects } from '../../src/sync/objects/index.ts';
import { emit, memoryParts, type WorkerConfig } from './worker-config.ts';
import type { WorkerDeps } from './worker-deps.ts';

/** One object sync of one kind, with progress lines; returns its summary. */
export async function runSyncTask(config: WorkerConfig, deps: WorkerDeps, connectionId: string) {
  const sync = config.sync;
  if (!sync) throw new Error('task sync needs BENCH_WORKER.sync');
  const every = config.progressEveryMs ?? 200;
  let last = 0;
  return syncObjects(
    {
      sql: deps.sql,
      erp: deps.erp,
      platform: deps.syncPlatform,
      connectionId,
      log: deps.log,
      onProgress(p) {
        const now = Date.now();
        if (now - last < every) return;
        last = now;
        emit({
          bench: 'progress',
          t: now,
          read: p.read,
          posted: p.posted,
          failed: p.failed,
          reported: p.reported.items,
          mem: memoryParts(),
        });
      },
    },
    sync.kind,
    {
      ...(sync.slices ? { slices: sync.slices } : {}),
      ...(sync.readAhead ? { readAhead: sync.readAhead } : {}),
      ...(sync.pageConcurrency ? { pageConcurrency: sync.pageConcurrency } : {}),
    },
  );
}
