import type { ObjectKindName } from '../kinds.ts';
import { PostgresBoard, readerName } from '../reading/postgres-board.ts';
import { readKind } from '../reading/read-kind.ts';
import { FULL_BATCH } from './bulk-run.ts';
import { pageWriter } from './page-writer.ts';
import {
  beginRun,
  bulkPageLoop,
  type ObjectSyncDeps,
  type ObjectSyncOptions,
  type ObjectSyncSummary,
  SYNC_DEFAULTS,
} from './run-context.ts';
import { writePages } from './write-pages.ts';

/**
 * A share of a bulk run another process started (`runId` in read_runs, jobs/join-runs.ts): it
 * reads only the ranges the run's plan has left, takes no kind lock (the sync ledger's claims keep
 * every write single) and sends nothing left from earlier runs (the starter does). Told to stop
 * (a press, a shutdown), it ends its reading between pages, writes every page it has read and
 * still reports it: the run it joined may have sent its last batch already.
 */
export async function joinedShare(
  deps: ObjectSyncDeps,
  kind: ObjectKindName,
  runId: string,
  options: ObjectSyncOptions,
  stop: AbortSignal,
): Promise<ObjectSyncSummary> {
  const { spec, summary, results } = beginRun(deps, kind);
  // Runs are shared only for kinds read split by date (bulk-run.ts sharedPlan).
  const plan = spec.splitDate
    ? { board: PostgresBoard.join(deps.sql, runId), reader: readerName(), role: 'join' as const }
    : {};
  const pages = readKind(deps.platform, kind, {
    log: deps.log,
    slices: options.slices ?? SYNC_DEFAULTS.slices,
    ...plan,
    stop,
  });
  const { readError } = await writePages(
    pages,
    bulkPageLoop(options),
    pageWriter(deps, kind, { summary, results }, () => results.sendWhenGathered(FULL_BATCH)),
  );
  await results.finish();
  if (readError) throw readError;
  return { ...summary, joined: true };
}
