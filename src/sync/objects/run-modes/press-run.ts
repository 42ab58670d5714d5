import { addReport, sendLeftBatches } from '../../reporting/index.ts';
import type { ObjectKindName } from '../kinds.ts';
import { readKind } from '../reading/read-kind.ts';
import { pageWriter } from './page-writer.ts';
import {
  beginRun,
  type ObjectSyncDeps,
  type ObjectSyncOptions,
  type ObjectSyncSummary,
  SYNC_DEFAULTS,
} from './run-context.ts';
import { writePages } from './write-pages.ts';

/**
 * A sync-button press's run of one kind (docs/platform.md G28), under a lock of its own press:
 * reads only the rows the customer asked for, one page at a time, and posts each page's results
 * with the press's id as soon as they are recorded, because the press's answer is waited for.
 * It writes its first page at once (no read-ahead burst) and stops between pages once its lock
 * is lost (the press was answered, or another process took it over).
 */
export async function pressRun(
  deps: ObjectSyncDeps,
  kind: ObjectKindName,
  syncRequestId: string,
  options: ObjectSyncOptions,
  lockLost: AbortSignal,
): Promise<ObjectSyncSummary> {
  const { spec, summary, report, results } = beginRun(deps, kind, syncRequestId);
  addReport(summary.reported, await sendLeftBatches(report, spec.syncTypes, syncRequestId));
  // Requested rows are read by one cursor (reading/read-kind.ts): a press is small.
  const pages = readKind(deps.platform, kind, { log: deps.log, requestedToSync: true });
  const { readError } = await writePages(
    pages,
    {
      readAhead: options.readAhead ?? SYNC_DEFAULTS.readAhead,
      fillFirst: false,
      concurrency: 1,
      stopped: () => lockLost.aborted,
    },
    pageWriter(deps, kind, { summary, results, syncRequestId }, () => results.send(1)),
  );
  lockLost.throwIfAborted();
  await results.finish();
  if (readError) throw readError;
  return summary;
}
