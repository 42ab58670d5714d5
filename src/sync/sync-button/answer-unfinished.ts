import type { Sql } from 'postgres';
import { transient } from '../../erp/errors.ts';
import type { Logger } from '../../log.ts';
import type { SyncType } from '../../platform/schemas/syncs.ts';
import type { SyncPlatform } from '../objects/platform-port.ts';
import { freezeAndSend, type ReportCounts, sendFrozen } from '../objects/report-results.ts';
import { claimRows } from '../sync-ledger/claims.ts';
import { adoptKnownOutcomes, recordOutcomes, releaseLeftovers } from '../sync-ledger/outcomes.ts';
import { hasUnansweredRows, ownedRows } from './attribute-rows.ts';
import { observeRequested } from './observe-requested.ts';
import { addWatchdogFailures, answerSyncRequest, getSyncRequest } from './requests.ts';
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
  | { outcome: 'answered'; failed: number; adopted: number; reported: ReportCounts };

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
    const more = await sendFrozen(report, { syncTypes: [syncType], whenLeased: 'skip' });
    into.batches += more.batches;
    into.items += more.items;
    into.rejected += more.rejected;
  } catch (error) {
    report.log.warn({ err: error, syncType }, 'a frozen result batch could not be sent by the watchdog');
  }
}

/**
 * The sync-button watchdog (docs/platform.md G29; design rule "post a temporary failure ...
 * rather than letting it expire silently"): shortly before the deadline, every row still
 * requested on the platform and attributed to this request (attribute-rows.ts) gets a result
 * with the request's sync_request_id. Rows of other open requests of the kind are left to their
 * own runs and watchdogs, which answer them by their own deadlines. Outcomes already known are
 * posted as they are; the rest are claimed and reported as a transient failure, so the object
 * stays ready and the next sync writes it (the ERP write is idempotent by object id, so a write
 * still in flight elsewhere is not repeated).
 *
 * A request its run already answered is looked at too: a row attributed to it after the run
 * (an earlier press whose event came late), or one whose result the platform rejected, is still
 * requested and would expire. The database says whether any such row exists, so a request
 * answered in full costs no read.
 */
export async function answerUnfinished(
  deps: WatchdogDeps,
  request: WatchdogRequest,
): Promise<WatchdogResult> {
  const row = await getSyncRequest(deps.sql, request.syncRequestId);
  const state = row?.state ?? 'unknown';
  if (state !== 'OPEN' && state !== 'ANSWERED') return { outcome: 'nothing to do', state };
  const scope = { connectionId: request.connectionId, objectType: request.objectType };
  if (state === 'ANSWERED' && !(await hasUnansweredRows(deps.sql, scope, request.syncRequestId))) {
    return { outcome: 'nothing to do', state };
  }
  const spec = BUTTON_OBJECTS[request.objectType];
  const observed = await observeRequested(deps, scope, { keepPages: false });
  const objectIds = await ownedRows(deps.sql, scope, request.syncRequestId);
  const base = {
    connectionId: request.connectionId,
    syncType: spec.syncType,
    syncRequestId: request.syncRequestId,
  };
  const adopted = await adoptKnownOutcomes(deps.sql, { ...base, objectIds });
  const due = await claimRows(deps.sql, { ...base, objectIds });
  const failed = await recordOutcomes(
    deps.sql,
    request.connectionId,
    spec.syncType,
    due.map((objectId) => ({ objectId, ok: false, category: 'transient', message: SYNC_TOO_LONG.message })),
  );
  const report = {
    sql: deps.sql,
    platform: deps.syncPlatform,
    connectionId: request.connectionId,
    log: deps.log,
  };
  const reported = await freezeAndSend(report, [spec.syncType], { syncRequestId: request.syncRequestId });
  await sendOthersFrozen(report, spec.syncType, reported);
  const log = deps.log.child({ syncRequestId: request.syncRequestId, objectType: request.objectType });
  if (state === 'OPEN') {
    const answered = await answerSyncRequest(deps.sql, request.syncRequestId, failed);
    if (answered) {
      log.info(
        { latencyMs: answered.latencyMs, answeredBy: 'watchdog', rows: objectIds.length, failed },
        'sync-button request answered',
      );
    }
  } else {
    await addWatchdogFailures(deps.sql, request.syncRequestId, failed);
  }
  await releaseLeftovers(deps.sql, request.connectionId, request.syncRequestId);
  if (failed > 0 || adopted > 0) {
    log.warn(
      { failed, adopted, own: objectIds.length, requested: observed.objectIds.length },
      'sync-button rows not finished before the deadline were answered with a temporary failure',
    );
  }
  return { outcome: 'answered', failed, adopted, reported };
}
