import { startJoining } from '../../jobs/join-runs.ts';
import type { ObjectSyncSummary } from '../../src/sync/objects/index.ts';
import { emit } from './worker-config.ts';
import type { WorkerDeps } from './worker-deps.ts';

/**
 * A second worker process on the same kind (scale-out): the product's joiner (jobs/join-runs.ts)
 * looks for a bulk sync another process started, takes its share and ends; returns what it did.
 */
export async function runJoinTask(deps: WorkerDeps, stop: Promise<void>): Promise<ObjectSyncSummary | null> {
  let resolveJoined: (summary: ObjectSyncSummary) => void = () => {};
  const joined = new Promise<ObjectSyncSummary>((resolve) => {
    resolveJoined = resolve;
  });
  const joiner = startJoining(
    { sql: deps.sql, erp: deps.erp, syncPlatform: deps.syncPlatform, log: deps.log },
    { everyMs: 250, onJoined: (summary) => resolveJoined(summary) },
  );
  emit({ bench: 'ready', t: Date.now() });
  try {
    return await Promise.race([joined, stop.then(() => null)]);
  } finally {
    await joiner.stop();
  }
}
