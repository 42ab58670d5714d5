import type { Sql, TransactionSql } from 'postgres';
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
  /** The watchdog answered before every requested row could be read (0019's cut_short). */
  cutShort = false,
): Promise<{ latencyMs: number } | null> {
  const [row] = await sql<{ latency_ms: number }[]>`
    update sync_requests set state = 'ANSWERED', answered_at = now(), watchdog_failed = ${watchdogFailed},
      cut_short = ${cutShort}
    where sync_request_id = ${syncRequestId} and state = 'OPEN'
    returning (extract(epoch from answered_at - requested_at) * 1000)::float8 as latency_ms`;
  return row ? { latencyMs: Math.max(0, Math.round(Number(row.latency_ms))) } : null;
}

/**
 * How far the reads of a press's requested rows have got (0019): pages read along the furthest
 * read, the page.next after them, whether a read listed every requested row, and when it last
 * moved. The watchdog goes on from here (answer-unfinished.ts) and sets its start from what is
 * left (watchdog-lead.ts).
 */
export interface ReadCursor {
  pages: number;
  next: string | null;
  complete: boolean;
  at: Date | null;
}

export async function readCursor(sql: Sql, syncRequestId: string): Promise<ReadCursor | null> {
  const [row] = await sql<
    { read_pages: number; read_next: string | null; read_complete: boolean; read_at: Date | null }[]
  >`select read_pages, read_next, read_complete, read_at from sync_requests
    where sync_request_id = ${syncRequestId}`;
  if (!row) return null;
  return { pages: row.read_pages, next: row.read_next, complete: row.read_complete, at: row.read_at };
}

/**
 * A reader of the press's requested rows has read `pages` pages, the last one pointing on to
 * `next` (null: the list ended there). The cursor moves only forward: to a reader further along,
 * or to the end of the list; a reader behind the cursor changes nothing.
 */
export async function advanceReadCursor(
  sql: Sql,
  syncRequestId: string,
  reached: { pages: number; next: string | null },
): Promise<void> {
  await sql`
    update sync_requests
    set read_pages = greatest(read_pages, ${reached.pages}), read_next = ${reached.next},
        read_complete = ${reached.next === null}, read_at = now()
    where sync_request_id = ${syncRequestId} and not read_complete
      and (${reached.next === null} or read_pages < ${reached.pages})`;
}

/** Rows of an answered request the watchdog still had to answer count with its temporary failures. */
export async function addWatchdogFailures(sql: Sql, syncRequestId: string, failed: number): Promise<void> {
  if (failed === 0) return;
  await sql`
    update sync_requests set watchdog_failed = watchdog_failed + ${failed}
    where sync_request_id = ${syncRequestId}`;
}

/**
 * Gives every requested row of the scope the earliest known request its evidence allows
 * (src/sync/sync-button/attribute-rows.ts runs it, under its attribution lock, and says why the
 * earliest). A press ignored because the connection's flag was off (docs/platform.md G28) takes
 * no rows: nothing answers them, so a row that could be a later press's goes to that press
 * instead. One statement over sync_request_rows and sync_requests, kept whole: it lives here as
 * every statement naming sync_requests does.
 */
export async function assignRowsToEarliestRequests(
  tx: TransactionSql,
  scope: { connectionId: string; objectType: ButtonObjectType },
): Promise<void> {
  await tx`
    with candidate as (
      select a.object_id, (
        select r.sync_request_id from sync_requests r
        where r.connection_id = a.connection_id and r.object_type = a.object_type
          and r.requested_at > coalesce(a.requested_after, '-infinity'::timestamptz)
          and r.requested_at <= a.last_seen
          and r.deadline > a.seen_from and r.state <> 'IGNORED'
        order by r.requested_at, r.sync_request_id
        limit 1) as owner
      from sync_request_rows a
      where a.connection_id = ${scope.connectionId} and a.object_type = ${scope.objectType}
        and a.state = 'REQUESTED'
    )
    update sync_request_rows a set sync_request_id = c.owner, updated_at = now()
    from candidate c
    where a.connection_id = ${scope.connectionId} and a.object_type = ${scope.objectType}
      and a.object_id = c.object_id and c.owner is not null
      and a.sync_request_id is distinct from c.owner`;
}

interface RequestStats {
  answered: number;
  open: number;
  expired: number;
  cut_short: number;
  last_cut_short: Date | null;
  p50: number | null;
  p99: number | null;
}

/** Counts of a connection's requests by state, and the answered ones' latency percentiles (ms). */
export async function requestStats(sql: Sql, connectionId: string): Promise<RequestStats | undefined> {
  const [row] = await sql<RequestStats[]>`
    select count(*) filter (where state = 'ANSWERED')::int as answered,
           count(*) filter (where state = 'OPEN')::int as open,
           count(*) filter (where state = 'EXPIRED')::int as expired,
           count(*) filter (where cut_short)::int as cut_short,
           max(requested_at) filter (where cut_short) as last_cut_short,
           percentile_cont(0.5) within group (order by extract(epoch from answered_at - requested_at) * 1000)
             filter (where answered_at is not null) as p50,
           percentile_cont(0.99) within group (order by extract(epoch from answered_at - requested_at) * 1000)
             filter (where answered_at is not null) as p99
    from sync_requests where connection_id = ${connectionId}`;
  return row;
}

/** The float8 type oid: bucket bounds are fractional seconds. */
const FLOAT8 = 701;

/**
 * Latency = answered_at - requested_at of answered requests; one pass, bucketed in Postgres:
 * per upper bound (seconds), how many answered within it; their count and sum (seconds); and
 * how many requests are open and expired.
 */
export async function requestLatencyBuckets(
  sql: Sql,
  connectionId: string,
  bounds: number[],
): Promise<{ counts: number[]; count: number; sum: number; open: number; expired: number } | undefined> {
  const [row] = await sql<{ counts: number[]; count: number; sum: number; open: number; expired: number }[]>`
    with answered as (
      select extract(epoch from answered_at - requested_at)::float8 as s from sync_requests
      where connection_id = ${connectionId} and state = 'ANSWERED' and answered_at is not null
    )
    select
      array(select (select count(*) from answered a where a.s <= le)::int
            from unnest(${sql.array(bounds, FLOAT8)}::float8[]) with ordinality as b(le, i) order by i) as counts,
      (select count(*) from answered)::int as count,
      (select coalesce(sum(s), 0) from answered)::float8 as sum,
      (select count(*) from sync_requests where connection_id = ${connectionId} and state = 'OPEN')::int as open,
      (select count(*) from sync_requests where connection_id = ${connectionId} and state = 'EXPIRED')::int as expired`;
  return row;
}

/** The latest `limit` answered requests, newest first: when pressed, and how long to answer (ms). */
export async function recentAnsweredRequests(
  sql: Sql,
  connectionId: string,
  limit: number,
): Promise<{ at: Date; ms: number }[]> {
  return sql<{ at: Date; ms: number }[]>`
    select requested_at as at, (extract(epoch from answered_at - requested_at) * 1000)::float8 as ms
    from sync_requests
    where connection_id = ${connectionId} and state = 'ANSWERED' and answered_at is not null
    order by requested_at desc limit ${limit}`;
}

/**
 * At a connection migration's switch (src/sync/connection-migration/store.ts, in its
 * transaction): the open requests of `source` become `target`'s. Returns how many moved.
 */
export async function carryOverOpenRequests(
  tx: TransactionSql,
  connections: { source: string; target: string },
): Promise<number> {
  const { source, target } = connections;
  const syncRequests = await tx`
      update sync_requests set connection_id = ${target}
       where connection_id = ${source} and state = 'OPEN'`;
  return syncRequests.count;
}

/** Moves one request from `from` to `to` if it is still open there. Returns true when it moved. */
export async function moveOpenRequest(
  sql: Sql,
  syncRequestId: string,
  connections: { from: string; to: string },
): Promise<boolean> {
  const moved = await sql`
    update sync_requests set connection_id = ${connections.to}
     where sync_request_id = ${syncRequestId} and connection_id = ${connections.from} and state = 'OPEN'`;
  return moved.count > 0;
}

/** An OPEN request, with what is left of its window on the database's clock. */
export interface OpenRequest {
  syncRequestId: string;
  connectionId: string;
  objectType: ButtonObjectType;
  deadline: Date;
  leftMs: number;
}

/**
 * The requests still OPEN whose deadline has not passed, soonest deadline first. "Passed" is
 * judged by the database's clock (now()), the one every worker shares, so replicas whose clocks
 * drift agree on which presses are still open.
 */
export async function openRequestsInWindow(sql: Sql, limit = 1_000): Promise<OpenRequest[]> {
  const rows = await sql<
    {
      sync_request_id: string;
      connection_id: string;
      object_type: ButtonObjectType;
      deadline: Date;
      left_ms: number;
    }[]
  >`
    select sync_request_id, connection_id, object_type, deadline,
           (extract(epoch from deadline - now()) * 1000)::float8 as left_ms
    from sync_requests where state = 'OPEN' and deadline > now()
    order by deadline limit ${limit}`;
  return rows.map((row) => ({
    syncRequestId: row.sync_request_id,
    connectionId: row.connection_id,
    objectType: row.object_type,
    deadline: row.deadline,
    leftMs: Math.max(0, Math.floor(Number(row.left_ms))),
  }));
}

/**
 * OPEN → EXPIRED for requests whose deadline passed more than `graceMs` ago on the database's
 * clock: nothing answered them in their window, and the platform has failed their rows
 * (docs/platform.md G29). answered_at stays empty: nothing answered them, and the latency
 * figures read it. Returns the requests this call closed (a replica closing them at the same
 * moment gets none of them).
 */
export async function expireOverdueRequests(
  sql: Sql,
  graceMs: number,
): Promise<
  { syncRequestId: string; connectionId: string; objectType: ButtonObjectType; overdueMs: number }[]
> {
  const rows = await sql<
    { sync_request_id: string; connection_id: string; object_type: ButtonObjectType; overdue_ms: number }[]
  >`
    update sync_requests set state = 'EXPIRED'
    where state = 'OPEN' and deadline < now() - make_interval(secs => ${graceMs / 1000})
    returning sync_request_id, connection_id, object_type,
              (extract(epoch from now() - deadline) * 1000)::float8 as overdue_ms`;
  return rows.map((row) => ({
    syncRequestId: row.sync_request_id,
    connectionId: row.connection_id,
    objectType: row.object_type,
    overdueMs: Math.round(Number(row.overdue_ms)),
  }));
}
