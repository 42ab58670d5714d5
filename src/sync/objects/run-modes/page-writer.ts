import type { ObjectKindName } from '../kinds.ts';
import { processPage } from '../page-step.ts';
import type { ReadItem } from '../platform-port.ts';
import type { ResultSender } from './result-sender.ts';
import type { ObjectSyncDeps, ObjectSyncSummary } from './run-context.ts';

/**
 * What a run does with each page it reads: the shared page step, its outcomes counted toward the
 * next send, the run's own sending rule (`afterPage`), then progress for long runs.
 */
export function pageWriter(
  deps: ObjectSyncDeps,
  kind: ObjectKindName,
  run: { summary: ObjectSyncSummary; results: ResultSender; syncRequestId?: string },
  afterPage: () => void | Promise<void>,
): (items: ReadItem[]) => Promise<void> {
  const started = Date.now();
  return async (items) => {
    // Awaited first, then added: the count grows by what this page recorded, whatever the pages
    // beside it added meanwhile.
    const recorded = await processPage(deps, kind, items, run.summary, run.syncRequestId);
    run.results.add(recorded);
    await afterPage();
    deps.onProgress?.({ ...run.summary, durationMs: Date.now() - started });
  };
}
