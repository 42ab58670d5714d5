import { addReport, sendLeftBatches } from '../../reporting/index.ts';
import { releaseClosedRequests } from '../../sync-ledger/index.ts';
import { kindSpec, type ObjectKindName } from '../kinds.ts';
import { PostgresBoard, readerName } from '../reading/postgres-board.ts';
import { type ReadOptions, readKind } from '../reading/read-kind.ts';
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

/** Results are posted once 5,000 have gathered (F14), and whatever is left at the end. */
export const FULL_BATCH = 5000;
/**
 * When the reading is down to its last pages (ReadOptions.onLastPages), what has gathered is
 * posted then if it is at least this many, so the final batch holds little more than those last
 * pages: its freeze, post and acknowledgement, which grow with its size, are what the run waits
 * for after its last read. One request more, a few hundred ms less at the end of a long run.
 */
const EARLY_LAST_BATCH = 1000;

/**
 * A bulk run of one kind, started here under the kind's lock: sends what an earlier run left
 * frozen, plans the reading (shared in PostgreSQL so idle processes can join, jobs/join-runs.ts),
 * writes every ready object and posts the results in full batches as they gather. Losing the lock
 * stops it between pages (another process may be running the kind).
 */
export async function bulkRun(
  deps: ObjectSyncDeps,
  kind: ObjectKindName,
  options: ObjectSyncOptions,
  lockLost: AbortSignal,
): Promise<ObjectSyncSummary> {
  const { spec, summary, report, results } = beginRun(deps, kind);
  addReport(summary.reported, await sendLeftBatches(report, spec.syncTypes));
  const pages = readKind(deps.platform, kind, {
    log: deps.log,
    slices: options.slices ?? SYNC_DEFAULTS.slices,
    ...(await sharedPlan(deps, kind, options)),
    // Only the run's starter posts early: its freeze takes what every process has gathered, and
    // a joined share's early post would be one request more for the same end.
    onLastPages: () => results.sendWhenGathered(EARLY_LAST_BATCH),
  });
  const { readError } = await writePages(
    pages,
    { ...bulkPageLoop(options), stopped: () => lockLost.aborted },
    pageWriter(deps, kind, { summary, results }, () => results.sendWhenGathered(FULL_BATCH)),
  );
  lockLost.throwIfAborted();
  await results.settled();
  // Outcomes still tied to a press no longer open would wait for ever (its run has stopped):
  // they go out with this run's last batch, without the press's id.
  if (!readError) await releaseClosedRequests(deps.sql, deps.connectionId);
  await results.finish();
  if (readError) throw readError;
  return summary;
}

/**
 * Kinds read split by date share their plan in PostgreSQL, so worker processes that are idle can
 * join the run (joined-share.ts). Kinds read with one cursor need none, nor a run that is not
 * joinable (ObjectSyncOptions.joinable).
 */
async function sharedPlan(
  deps: ObjectSyncDeps,
  kind: ObjectKindName,
  options: ObjectSyncOptions,
): Promise<Pick<ReadOptions, 'board' | 'reader' | 'role'>> {
  if (!kindSpec(kind).splitDate || options.joinable === false) return {};
  const reader = readerName();
  return {
    board: await PostgresBoard.begin(deps.sql, deps.connectionId, kind, reader),
    reader,
    role: 'start',
  };
}
