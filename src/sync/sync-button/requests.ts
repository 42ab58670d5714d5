import type { Sql } from 'postgres';
import type { ButtonObjectType } from './window.ts';

/** A sync-button request as recorded in `sync_requests` (docs/platform.md G28 and G29). */
export interface SyncRequestRow {
  syncRequestId: string;
  connectionId: string;
  objectType: ButtonObjectType;
  requestedAt: Date;
  deadline: Date;
  state: 'OPEN' | 'ANSWERED' | 'EXPIRED' | 'IGNORED';
  watchdogFailed: number;
}

/** Records a request once; a repeated event for the same id changes nothing. Returns true when new. */
export async function recordSyncRequest(
  sql: Sql,
  request: Pick<SyncRequestRow, 'syncRequestId' | 'connectionId' | 'objectType' | 'requestedAt' | 'deadline'>,
): Promise<boolean> {
  const inserted = await sql`
    insert into sync_requests (sync_request_id, connection_id, object_type, requested_at, deadline)
    values (${request.syncRequestId}, ${request.connectionId}, ${request.objectType},
            ${request.requestedAt}, ${request.deadline})
    on conflict (sync_request_id) do nothing`;
  return inserted.count === 1;
}

export async function getSyncRequest(sql: Sql, syncRequestId: string): Promise<SyncRequestRow | null> {
  const [row] = await sql<
    {
      sync_request_id: string;
      connection_id: string;
      object_type: ButtonObjectType;
      requested_at: Date;
      deadline: Date;
      state: SyncRequestRow['state'];
      watchdog_failed: number;
    }[]
  >`select sync_request_id, connection_id, object_type, requested_at, deadline, state, watchdog_failed
    from sync_requests where sync_request_id = ${syncRequestId}`;
  if (!row) return null;
  return {
    syncRequestId: row.sync_request_id,
    connectionId: row.connection_id,
    objectType: row.object_type,
    requestedAt: row.requested_at,
    deadline: row.deadline,
    state: row.state,
    watchdogFailed: row.watchdog_failed,
  };
}

/**
 * OPEN → ANSWERED | EXPIRED | IGNORED, once: the WHERE on the state makes a late or repeated
 * close a no-op. Returns true when this call closed it.
 */
export async function closeSyncRequest(
  sql: Sql,
  syncRequestId: string,
  state: 'ANSWERED' | 'EXPIRED' | 'IGNORED',
  watchdogFailed = 0,
): Promise<boolean> {
  const updated = await sql`
    update sync_requests set state = ${state}, answered_at = now(), watchdog_failed = ${watchdogFailed}
    where sync_request_id = ${syncRequestId} and state = 'OPEN'`;
  return updated.count === 1;
}

/**
 * OPEN → ANSWERED, once (as closeSyncRequest), returning the answer's latency: from the press
 * (requested_at) to now, in milliseconds, on the clock the status page and metrics use. Null
 * when the request was no longer open.
 */
export async function answerSyncRequest(
  sql: Sql,
  syncRequestId: string,
  watchdogFailed = 0,
): Promise<{ latencyMs: number } | null> {
  const [row] = await sql<{ latency_ms: number }[]>`
    update sync_requests set state = 'ANSWERED', answered_at = now(), watchdog_failed = ${watchdogFailed}
    where sync_request_id = ${syncRequestId} and state = 'OPEN'
    returning (extract(epoch from answered_at - requested_at) * 1000)::float8 as latency_ms`;
  return row ? { latencyMs: Math.max(0, Math.round(Number(row.latency_ms))) } : null;
}

/** Rows of an answered request the watchdog still had to answer count with its temporary failures. */
export async function addWatchdogFailures(sql: Sql, syncRequestId: string, failed: number): Promise<void> {
  if (failed === 0) return;
  await sql`
    update sync_requests set watchdog_failed = watchdog_failed + ${failed}
    where sync_request_id = ${syncRequestId}`;
}
