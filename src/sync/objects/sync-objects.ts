import { withAdvisoryLock } from '../advisory-lock.ts';
import { connectionAfterSwitches } from '../connection-migration/index.ts';
import type { ObjectKindName } from './kinds.ts';
import { objectSyncLockName } from './lock-name.ts';
import { bulkRun } from './run-modes/bulk-run.ts';
import { joinedShare } from './run-modes/joined-share.ts';
import { pressRun } from './run-modes/press-run.ts';
import {
  emptySummary,
  type ObjectSyncDeps,
  type ObjectSyncOptions,
  type ObjectSyncSummary,
} from './run-modes/run-context.ts';

/**
 * Syncs one kind of ready object for one connection: page through the platform's ready objects,
 * write each into the ERP (at most once, by the sync ledger and the ERP's own idempotency), and
 * report every outcome through the frozen-batch outbox. Pages are read ahead of the ERP writes
 * and full result batches are sent while reading continues, so the rate budget stays busy.
 *
 * Three kinds of run (run-modes/): a bulk run, started here under the kind's lock; a share of a bulk
 * run another process started (`joinRunId`); and a sync-button press's run (`syncRequestId`),
 * under a lock of its own press.
 */
export async function syncObjects(
  deps: ObjectSyncDeps,
  kind: ObjectKindName,
  options: ObjectSyncOptions = {},
): Promise<ObjectSyncSummary> {
  const started = Date.now();
  // The token round trip overlaps the run's set-up in PostgreSQL (its lock, its plan) instead of
  // delaying the first read. A failure here is the first read's failure too (one token request
  // serves both), and is reported there.
  deps.platform.prepare?.().catch(() => undefined);
  const { joinRunId, syncRequestId } = options;
  if (joinRunId) {
    const summary = await joinedShare(
      deps,
      kind,
      joinRunId,
      options,
      options.signal ?? new AbortController().signal,
    );
    return { ...summary, durationMs: Date.now() - started };
  }
  const outcome = await withAdvisoryLock(
    deps.sql,
    objectSyncLockName(deps.connectionId, kind, syncRequestId),
    async (lockLost) => {
      // The customer switched to another connection after this run was addressed (a migration,
      // docs/platform.md G31): the switch moved this connection's unfinished work, so nothing is
      // run here; the next run is addressed to the new connection.
      if (await connectionAfterSwitches(deps.sql, deps.connectionId)) return null;
      return syncRequestId
        ? pressRun(deps, kind, syncRequestId, options, lockLost)
        : bulkRun(deps, kind, options, lockLost);
    },
  );
  if (outcome.busy || outcome.value === null)
    return { ...emptySummary(kind), busy: true, durationMs: Date.now() - started };
  return { ...outcome.value, durationMs: Date.now() - started };
}
