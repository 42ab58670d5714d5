import type { Sql } from 'postgres';
import { transient } from '../../erp/errors.ts';
import type { Logger } from '../../log.ts';
import type { SyncType } from '../../platform/schemas/syncs.ts';
import type { SyncPlatform } from '../objects/platform-port.ts';
import { freezeAndSend, type ReportCounts, sendFrozen } from '../objects/report-results.ts';
import { claimRows } from '../outbox/claim-rows.ts';
import { recordOutcomes } from '../outbox/record-outcomes.ts';
import { adoptKnownOutcomes, releaseLeftovers } from './adopt-rows.ts';
import { pageObjectIds } from './adopting-platform.ts';
import { closeSyncRequest, getSyncRequest } from './requests.ts';
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

async function requestedIds(platform: SyncPlatform, kind: (typeof BUTTON_OBJECTS)[ButtonObjectType]['kind']) {
  const ids: string[] = [];
  for await (const page of platform.readyPages(kind, { requestedToSync: true, slices: 1 })) {
    ids.push(...pageObjectIds(page));
  }
  return ids;
}

/** Rows another open request already holds in the ledger: its own run and watchdog answer them. */
async function heldByOthers(sql: Sql, request: WatchdogRequest, syncType: SyncType, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await sql<{ object_id: string }[]>`
    select l.object_id from sync_ledger l
    join sync_requests r on r.sync_request_id = l.sync_request_id
    where l.connection_id = ${request.connectionId} and l.sync_type = ${syncType}
      and l.object_id = any(${sql.array(ids)}::text[])
      and r.state = 'OPEN' and r.sync_request_id <> ${request.syncRequestId}`;
  return new Set(rows.map((r) => r.object_id));
}

/**
 * Batches other runs froze for these rows and have not sent yet go out as frozen (F15 makes a
 * second send of the same batch a replay). Best effort: the request's own results are already
 * posted, and a batch that cannot be sent now stays frozen for its own run.
 */
async function sendOthersFrozen(
  report: Parameters<typeof sendFrozen>[0],
  syncType: SyncType,
  into: ReportCounts,
): Promise<void> {
  try {
    const more = await sendFrozen(report, { syncTypes: [syncType] });
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
 * requested on the platform gets a result with the request's sync_request_id. Outcomes already
 * known are posted as they are; the rest are claimed and reported as a transient failure, so the
 * object stays ready and the next sync writes it (the ERP write is idempotent by object id, so a
 * write still in flight elsewhere is not repeated).
 */
export async function answerUnfinished(
  deps: WatchdogDeps,
  request: WatchdogRequest,
): Promise<WatchdogResult> {
  const row = await getSyncRequest(deps.sql, request.syncRequestId);
  if (row?.state !== 'OPEN') return { outcome: 'nothing to do', state: row?.state ?? 'unknown' };
  const spec = BUTTON_OBJECTS[request.objectType];
  const requested = await requestedIds(deps.syncPlatform, spec.kind);
  const others = await heldByOthers(deps.sql, request, spec.syncType, requested);
  const objectIds = requested.filter((id) => !others.has(id));
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
  await closeSyncRequest(deps.sql, request.syncRequestId, 'ANSWERED', failed);
  await releaseLeftovers(deps.sql, request.connectionId, request.syncRequestId);
  if (failed > 0 || adopted > 0) {
    deps.log.warn(
      { syncRequestId: request.syncRequestId, failed, adopted, requested: requested.length },
      'sync-button rows not finished before the deadline were answered with a temporary failure',
    );
  }
  return { outcome: 'answered', failed, adopted, reported };
}
