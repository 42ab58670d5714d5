import type { Sql } from 'postgres';
import type { ErpAdapter } from '../../erp/index.ts';
import type { Logger } from '../../log.ts';
import type { PlatformClient } from '../../platform/index.ts';
import type { ReadPage, SyncPlatform } from '../objects/index.ts';
import { emptySummary, type ObjectSyncSummary, prefetch, syncObjects } from '../objects/index.ts';
import { addReport } from '../reporting/index.ts';
import { adoptKnownOutcomes, releaseLeftovers } from '../sync-ledger/index.ts';
import { keepItems, pageObjectIds, withReadPages } from './adopting-platform.ts';
import { databaseTime, rowsOfEndedRuns, unansweredOwnRows } from './attribute-rows.ts';
import { syncButtonEnabled } from './button-flag.ts';
import { readRequested } from './observe-requested.ts';
import { timedPosts } from './platform-latency.ts';
import { movingReadCursor } from './read-cursor.ts';
import { answerSyncRequest, closeSyncRequest, getSyncRequest, recordSyncRequest } from './requests.ts';
import { BUTTON_OBJECTS, type ButtonObjectType } from './window.ts';

export interface SyncButtonDeps {
  sql: Sql;
  erp: ErpAdapter;
  platform: Pick<PlatformClient, 'connection'>;
  syncPlatform: SyncPlatform;
  log: Logger;
  /** The clock deadlines are checked on: the database's unless a test sets one (accept-event.ts). */
  now?: () => number | Promise<number>;
  onProgress?: (progress: ObjectSyncSummary) => void;
}

export interface SyncButtonRequest {
  connectionId: string;
  objectType: ButtonObjectType;
  syncRequestId: string;
  deadline: Date;
}

export type SyncButtonOutcome =
  | { outcome: 'answered'; summary: ObjectSyncSummary }
  | { outcome: 'ignored: sync button disabled' }
  | { outcome: 'skipped: request closed'; state: string }
  | { outcome: 'skipped: already running' }
  | { outcome: 'stopped: request closed while running'; state: string }
  | { outcome: 'expired' };

/** The request was closed (by the watchdog) while its run was still reading pages. */
class RequestClosedError extends Error {
  override name = 'RequestClosedError';
  constructor(readonly state: string) {
    super(`the sync request is ${state}`);
  }
}

/**
 * docs/platform.md G28: answers one press of the sync button. Reads the requested rows
 * (requested_to_sync=true, F16) page by page, keeps those attributed to this request
 * (attribute-rows.ts: the read also lists the rows of other open requests of the kind), writes
 * them to the ERP and posts results with the sync_request_id after every page, before the page
 * after next is read (several posts per id). Outcomes other runs
 * already hold for these rows are adopted first, so none waits for another run's batch. One log
 * line per answered request carries its latency from the press (`latencyMs`).
 */
export async function runSyncButton(
  deps: SyncButtonDeps,
  request: SyncButtonRequest,
): Promise<SyncButtonOutcome> {
  const now = deps.now ?? (async () => (await databaseTime(deps.sql)).getTime());
  const spec = BUTTON_OBJECTS[request.objectType];
  const log = deps.log.child({ syncRequestId: request.syncRequestId, objectType: request.objectType });
  await recordSyncRequest(deps.sql, { ...request, requestedAt: new Date(await now()) });
  const row = await getSyncRequest(deps.sql, request.syncRequestId);
  if (row && row.state !== 'OPEN') return { outcome: 'skipped: request closed', state: row.state };
  if (!(await syncButtonEnabled(deps.platform, request.connectionId, request.objectType))) {
    await closeSyncRequest(deps.sql, request.syncRequestId, 'IGNORED');
    log.info(`sync-button event ignored: the connection's ${spec.flag} setting is off`);
    return { outcome: 'ignored: sync button disabled' };
  }
  if ((await now()) >= request.deadline.getTime()) {
    await closeSyncRequest(deps.sql, request.syncRequestId, 'EXPIRED');
    await releaseLeftovers(deps.sql, request.connectionId, request.syncRequestId);
    log.warn('sync-button request reached its deadline before it could run');
    return { outcome: 'expired' };
  }
  const summary = await runRequested(deps, request, log);
  if ('outcome' in summary) return summary;
  if (summary.busy) return { outcome: 'skipped: already running' };
  const answered = await answerSyncRequest(deps.sql, request.syncRequestId);
  if (!answered) {
    // The watchdog answered the request while the run's last page was being written.
    const current = await getSyncRequest(deps.sql, request.syncRequestId);
    return { outcome: 'stopped: request closed while running', state: current?.state ?? 'unknown' };
  }
  log.info(
    {
      latencyMs: answered.latencyMs,
      answeredBy: 'run',
      rows: summary.read,
      reported: summary.reported.items,
    },
    'sync-button request answered',
  );
  return { outcome: 'answered', summary };
}

function addSummary(into: ObjectSyncSummary, more: ObjectSyncSummary): void {
  for (const key of [
    'read',
    'posted',
    'failed',
    'skipped',
    'unreadable',
    'nothingToSync',
    'vendorsCreated',
  ] as const)
    into[key] += more[key];
  addReport(into.reported, more.reported);
}

/**
 * The run itself, answering as it reads: each page of the requested rows is attributed as it
 * arrives (readRequested), and this request's rows of it that are still unanswered are written to
 * the ERP and posted before the run moves on; the next page is read meanwhile (read-ahead 1, so
 * at most one page waits in memory), so the run goes at the pace of its slowest call, not of
 * their sum: 15 s reads and 8 s posts answer a page every 15 s. A run that read every page before
 * answering any let a slow platform spend the whole window on reads (15 s a page: 1,500 rows
 * answered only after the deadline).
 *
 * Which rows of a page are still this request's to answer is asked just before the page is
 * written, not when it was read: the watchdog may have answered some of them meanwhile (it posts
 * what it already knows first), and a row answered twice would carry two results. Each page is
 * one syncObjects call over that page, so its lock, claims and posts are a whole run's.
 */
async function runRequested(
  deps: SyncButtonDeps,
  request: SyncButtonRequest,
  log: Logger,
): Promise<
  ObjectSyncSummary | Extract<SyncButtonOutcome, { outcome: 'stopped: request closed while running' }>
> {
  const spec = BUTTON_OBJECTS[request.objectType];
  const scope = { connectionId: request.connectionId, objectType: request.objectType };
  const platform = timedPosts(deps.sql, request.connectionId, deps.syncPlatform);
  const summary = emptySummary(spec.kind);
  const started = Date.now();
  const read: ReadPage[] = [];
  let requested = 0;
  // The press's read cursor moves as each page arrives (read-cursor.ts), so the watchdog reads
  // only what this run has not.
  const pages = movingReadCursor(
    deps.sql,
    request.syncRequestId,
    readRequested({ sql: deps.sql, syncPlatform: platform }, scope),
  );
  try {
    for await (const page of prefetch(pages, 1)) {
      read.push(page);
      const ids = pageObjectIds(page);
      requested += ids.length;
      // Stop once the watchdog has answered the request (its rows carry a temporary failure and
      // the next sync writes them), else adopt what other runs know of the page's rows.
      const current = await getSyncRequest(deps.sql, request.syncRequestId);
      if (current && current.state !== 'OPEN') throw new RequestClosedError(current.state);
      const own = await unansweredOwnRows(deps.sql, scope, request.syncRequestId, ids);
      if (own.length === 0) continue;
      await adoptKnownOutcomes(deps.sql, { ...request, syncType: spec.syncType, objectIds: own });
      const done = await syncObjects(
        {
          sql: deps.sql,
          erp: deps.erp,
          platform: withReadPages(platform, spec.kind, keepItems([page], new Set(own))),
          connectionId: request.connectionId,
          log,
        },
        spec.kind,
        { syncRequestId: request.syncRequestId, readAhead: 1 },
      );
      // Another process is running this very request (a job run twice): it answers the rows.
      if (done.busy) return { ...summary, busy: true, durationMs: Date.now() - started };
      addSummary(summary, done);
      deps.onProgress?.({ ...summary, durationMs: Date.now() - started });
    }
  } catch (error) {
    if (!(error instanceof RequestClosedError)) throw error;
    await releaseLeftovers(deps.sql, request.connectionId, request.syncRequestId);
    log.info('sync-button run stopped: the watchdog answered the request first');
    return { outcome: 'stopped: request closed while running', state: error.state };
  }
  if (summary.read < requested) {
    log.info(
      { requested, own: summary.read },
      'sync-button run answered its own rows; the others belong to other open requests',
    );
  }
  await answerForEndedRuns({ ...deps, syncPlatform: platform }, request, read, log);
  return { ...summary, durationMs: Date.now() - started };
}

/**
 * Rows this run read that a later read gave to another request whose run had already ended
 * (rowsOfEndedRuns): no run of that request reads again, so they are answered here, under that
 * request's id, instead of waiting minutes for its watchdog. Each request's rows go in a run of
 * their own (its lock, its result batches); what another run already holds is adopted as usual.
 */
async function answerForEndedRuns(
  deps: SyncButtonDeps,
  request: SyncButtonRequest,
  pages: readonly ReadPage[],
  log: Logger,
): Promise<void> {
  const spec = BUTTON_OBJECTS[request.objectType];
  const scope = { connectionId: request.connectionId, objectType: request.objectType };
  for (const [owner, ids] of await rowsOfEndedRuns(deps.sql, scope, request.syncRequestId)) {
    const theirs = keepItems(pages, new Set(ids));
    if (theirs.length === 0) continue;
    const onPage = async (objectIds: string[]) => {
      await adoptKnownOutcomes(deps.sql, {
        ...request,
        syncRequestId: owner,
        syncType: spec.syncType,
        objectIds,
      });
    };
    const summary = await syncObjects(
      {
        sql: deps.sql,
        erp: deps.erp,
        platform: withReadPages(deps.syncPlatform, spec.kind, theirs, onPage),
        connectionId: request.connectionId,
        log: log.child({ forSyncRequestId: owner }),
      },
      spec.kind,
      { syncRequestId: owner, readAhead: 1 },
    );
    log.info(
      { forSyncRequestId: owner, rows: summary.read, reported: summary.reported.items },
      'sync-button run answered rows a later read gave to a request whose run had ended',
    );
  }
}
