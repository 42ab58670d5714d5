import { mirrorChart } from '../../src/sync/mirror/index.ts';
import type { WorkerDeps } from './worker-deps.ts';

/** One chart-of-accounts mirror into the connection; returns its summary. */
export function runMirrorTask(deps: WorkerDeps, connectionId: string) {
  return mirrorChart({
    sql: deps.sql,
    erp: deps.erp,
    platform: deps.client,
    connectionId,
    log: deps.log,
  });
}
