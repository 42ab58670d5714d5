import type { Sql } from 'postgres';
import { transient } from '../../erp/index.ts';
import type { Logger } from '../../log.ts';
import type { SyncType } from '../../platform/index.ts';
import type { SyncPlatform } from '../objects/index.ts';
import { addReport, freezeAndSend, type ReportCounts, sendFrozen } from '../reporting/index.ts';
import { adoptKnownOutcomes, claimRows, recordOutcomes, releaseLeftovers } from '../sync-ledger/index.ts';
import { hasUnansweredRows, unansweredOwnRows } from './attribute-rows.ts';
import { timedPosts } from './platform-latency.ts';
import { addWatchdogFailures, answerSyncRequest, getSyncRequest, readCursor } from './requests.ts';
import { readUntilAnswer } from './watchdog-reads.ts';
import { BUTTON_OBJECTS, type ButtonObjectType } from './window.ts';

/** What the bookkeeper reads for a row the watchdog answered (docs/platform.md G27: transient). */
export const SYNC_TOO_LONG = transient(
  'SYNC_WINDOW_TIMEOUT',
  'The sync took too long to finish within the 5-minute sync window',
  'This object was not finished in time and was not changed in your ERP by this request',
);

export interface WatchdogDeps {
  sql: Sql;
  syncPlatform: SyncPlatform;
  log: Logger;
}

export interface WatchdogRequest {
  connectionId: string;
  objectType: ButtonObjectType;
  syncRequestId: string;
}

export type WatchdogResult =
  | { outcome: 'nothing to do'; state: string }
  | {
      outcome: 'answered';
      failed: number;
      adopted: number;
      reported: ReportCounts;
      /** The deadline came before every requested row could be read (status shows it). */
      cutShort: boolean;
    };

/**
 * Batches other runs froze for these rows and have not sent yet go out as frozen (F15 makes a
 * second send of the same batch a replay). Best effort: the request's own results are already
 * posted, and a batch that cannot be sent now stays frozen for its own run. A batch another
 * sender holds is left to it, not waited for (the deadline is near): it is on its way, and a
 * holder that stopped before the press lost its lease long ago (RESULT_BATCH_LEASE_MS).
 */
async function sendOthersFrozen(
  report: Parameters<typeof sendFrozen>[0],
  syncType: SyncType,
  into: ReportCounts,
): Promise<void> {
  try {
    addReport(into, await sendFrozen(report, { syncTypes: [syncType], whenLeased: 'skip' }));
  } catch (error) {
    report.log.warn({ err: error, syncType }, 'a frozen result batch could not be sent by the watchdog');
  }
}

/**
 * The sync-button watchdog (docs/platform.md G29; design rule "post a temporary failure ...
 * rather than letting it expire silently"): every row still requested on the platform and
 * attributed to this request (attribute-rows.ts) gets a result with the request's sync_request_id
 * before the deadline. Rows of other open requests of the kind are left to their own runs and
 * watchdogs, which answer them by their own deadlines. Outcomes already known are posted as they
 * are; the rest are claimed and reported as a transient failure, so the object stays ready and
 * the next sync writes it (the ERP write is idempotent by object id, so a write still in flight
 * elsewhere is not repeated).
 *
 * In two steps, at times set from the latency the platform has shown (watchdog-lead.ts):
 * - from `readFrom`, it reads what no read of the press has reached yet, from where the furthest
 *   one stopped (the press's read cursor, requests.ts), a page at a time while a page still ends
 *   before the answer. What the run has read is never read again: at 15 s a page, reading it all
 *   again took longer than the window had left.
 * - at `answerAt`, it answers every row of the request known and still unanswered, in one post.
 *   Not earlier: the run is still answering them with their real outcomes until then. When no
 *   read could list every requested row by then, the press is cut short: the rows known are
 *   answered all the same, the rest are left to the platform's window, and `status` says so.
 * The run goes on meanwhile, answering as it reads; it skips what the watchdog answered and stops
 * once the watchdog closes the request. `answerNow` (a lead fixed by the receiver's
 * configuration) reads what is left and answers at once.
 *
 * A request its run already answered is looked at too: a row attributed to it after the run
 * (an earlier press whose event came late), or one whose result the platform rejected, is still
 * requested and would expire. The database says whether any such row exists, so a request
 * answered in full costs no read.
 */
export async function answerUnfinished(
  deps: WatchdogDeps,
  request: WatchdogRequest,
  options: { answerNow?: boolean } = {},
): Promise<WatchdogResult> {
  const row = await getSyncRequest(deps.sql, request.syncRequestId);
  const state = row?.state ?? 'unknown';
  if (state !== 'OPEN' && state !== 'ANSWERED') return { outcome: 'nothing to do', state };
  const scope = { connectionId: request.connectionId, objectType: request.objectType };
  if (state === 'ANSWERED' && !(await hasUnansweredRows(deps.sql, scope, request.syncRequestId))) {
    return { outcome: 'nothing to do', state };
  }
  const spec = BUTTON_OBJECTS[request.objectType];
  const platform = timedPosts(deps.sql, request.connectionId, deps.syncPlatform);
  const log = deps.log.child({ syncRequestId: request.syncRequestId, objectType: request.objectType });
  const waited = await readUntilAnswer({ ...deps, syncPlatform: platform, log }, request, options);
  if (waited.closed) return { outcome: 'nothing to do', state: waited.closed };
  const report = { sql: deps.sql, platform, connectionId: request.connectionId, log: deps.log };
  const own = await unansweredOwnRows(deps.sql, scope, request.syncRequestId);
  const answeredRows = await answerRows(report, request, own);
  const reported = { ...answeredRows.reported };
  await sendOthersFrozen(report, spec.syncType, reported);
  const { failed, adopted } = answeredRows;
  const cursor = await readCursor(deps.sql, request.syncRequestId);
  // The run may have answered the request meanwhile (its read was complete then): its rows are.
  const current = await getSyncRequest(deps.sql, request.syncRequestId);
  const cutShort = current?.state === 'OPEN' && cursor?.complete !== true;
  const answered =
    current?.state === 'OPEN'
      ? await answerSyncRequest(deps.sql, request.syncRequestId, failed, cutShort)
      : null;
  if (answered) {
    log.info(
      { latencyMs: answered.latencyMs, answeredBy: 'watchdog', rows: own.length, failed },
      'sync-button request answered',
    );
  } else {
    await addWatchdogFailures(deps.sql, request.syncRequestId, failed);
  }
  await releaseLeftovers(deps.sql, request.connectionId, request.syncRequestId);
  if (cutShort && answered) {
    log.warn(
      { rows: own.length, failed, adopted, pagesRead: cursor?.pages ?? 0, readPageMs: waited.readPageMs },
      'sync-button press cut short: the platform answered its reads too slowly to list every requested ' +
        'row before the deadline; the rows read were answered, the rest are left to the platform, ' +
        'which marks them failed, and the next sync writes them',
    );
  } else if (failed > 0 || adopted > 0) {
    log.warn(
      { failed, adopted, own: own.length },
      'sync-button rows not finished before the deadline were answered with a temporary failure',
    );
  }
  return { outcome: 'answered', failed, adopted, reported, cutShort: cutShort && answered !== null };
}

/**
 * Answers these rows of the request in one post: outcomes already known move to the request, the
 * rest are claimed and recorded as the temporary failure.
 */
async function answerRows(
  report: Parameters<typeof freezeAndSend>[0],
  request: WatchdogRequest,
  objectIds: string[],
): Promise<{ rows: number; adopted: number; failed: number; reported: ReportCounts }> {
  const none = { batches: 0, items: 0, rejected: 0 };
  if (objectIds.length === 0) return { rows: 0, adopted: 0, failed: 0, reported: none };
  const syncType = BUTTON_OBJECTS[request.objectType].syncType;
  const base = { connectionId: request.connectionId, syncType, syncRequestId: request.syncRequestId };
  const adopted = await adoptKnownOutcomes(report.sql, { ...base, objectIds });
  const due = await claimRows(report.sql, { ...base, objectIds });
  const failed = await recordOutcomes(
    report.sql,
    request.connectionId,
    syncType,
    due.map((objectId) => ({ objectId, ok: false, category: 'transient', message: SYNC_TOO_LONG.message })),
  );
  const reported = await freezeAndSend(report, [syncType], { syncRequestId: request.syncRequestId });
  return { rows: objectIds.length, adopted, failed, reported };
}
