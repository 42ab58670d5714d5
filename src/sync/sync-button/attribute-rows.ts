import type { Sql, TransactionSql } from 'postgres';
import { settleAnsweredRows, unansweredRowsOfEndedRuns } from '../sync-ledger/index.ts';
import { assignRowsToEarliestRequests } from './requests.ts';
import { BUTTON_OBJECTS, type ButtonObjectType } from './window.ts';

/**
 * Which sync request a requested row belongs to (docs/decisions.md "Sync-button rows are
 * attributed to requests from what the platform shows"). A read with requested_to_sync=true
 * (docs/platform.md F16) lists the rows of every open request of a kind together and names none;
 * the platform says only when each request was pressed (the event's created_at, F21) and which
 * rows are requested at the moment of a read. From those:
 *
 * - a row a read lists was requested at some moment of that read, so its request was pressed
 *   before the read ended, and its window had not closed when the read began;
 * - a row a complete read did not list (or a result we posted answered) was not requested at
 *   some moment after that read began (after that result was frozen), so when a later read lists
 *   it, its request was pressed after that moment;
 * - of the known requests pressed in that interval, the row goes to the earliest. The truth is
 *   that one or a later one, so the row is answered no later than its own deadline, never left
 *   to expire: when the evidence cannot tell two requests apart, the earlier deadline wins.
 *
 * A read is recorded page by page as it arrives (recordRequestedPage), so a run answers each page
 * before it reads the next, and ended once complete (endRequestedRead). Reads of one kind may
 * overlap; each step is recorded under a short transaction lock.
 */

export interface AttributionScope {
  connectionId: string;
  objectType: ButtonObjectType;
}

/** One complete read of the requested rows of a kind, timed by the database's clock. */
export interface RequestedRead {
  objectIds: readonly string[];
  startedAt: Date;
  finishedAt: Date;
}

/** Reads and finished streaks are kept this long: well past the 5-minute window (G29). */
const KEEP = '10 minutes';

function lockName(scope: AttributionScope): string {
  return `ledgersync:sync-button-rows:${scope.connectionId}:${scope.objectType}`;
}

/** The database's clock now, for timing reads against frozen and acknowledged results. */
export async function databaseTime(sql: Sql): Promise<Date> {
  const [row] = await sql<{ at: Date }[]>`select clock_timestamp() as at`;
  return row!.at;
}

/**
 * Ends the streaks that posted results answered (docs/platform.md G28). The rule, and its one
 * statement over the sync ledger and the result batches, are in src/sync/sync-ledger/answered-rows.ts.
 */
async function settleAnswered(tx: TransactionSql, scope: AttributionScope): Promise<void> {
  await settleAnsweredRows(tx, { ...scope, syncType: BUTTON_OBJECTS[scope.objectType].syncType });
}

/**
 * Gives every requested row of the scope the earliest known request its evidence allows (an
 * ignored press takes none). The rule's one statement, over these rows and the requests, is in
 * src/sync/sync-button/requests.ts.
 */
async function assignOwners(tx: TransactionSql, scope: AttributionScope): Promise<void> {
  await assignRowsToEarliestRequests(tx, scope);
}

/**
 * One page of a read of the requested rows, as it arrives: the rows it lists were requested at
 * some moment between the read's start and the page's arrival (`seenBy`). Between, not at the
 * page's own start: the platform may page through a list it took when the read began. So each
 * row listed starts a streak (or continues one) bounded by that interval, and the rows are
 * attributed at once, so a run can answer a page before it reads the next one. The page's arrival
 * is also the row's first_seen_by, the moment after which a result answers the streak
 * (settleAnsweredRows): a result posted for this page is frozen after it, so it counts, where
 * the end of the whole read would have come after the page's answer and ignored it.
 *
 * Whether a row is no longer requested (not listed) is known only once the read is complete:
 * endRequestedRead. A listing older than what ended a streak (the read began before that answer
 * was acknowledged) is stale for that row and changes nothing.
 */
export async function recordRequestedPage(
  sql: Sql,
  scope: AttributionScope,
  page: { objectIds: readonly string[]; startedAt: Date; seenBy: Date },
): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${lockName(scope)}))`;
    await settleAnswered(tx, scope);
    await listRows(tx, scope, page);
    await assignOwners(tx, scope);
  });
}

async function listRows(
  tx: TransactionSql,
  scope: AttributionScope,
  page: { objectIds: readonly string[]; startedAt: Date; seenBy: Date },
): Promise<void> {
  const ids = [...new Set(page.objectIds)];
  if (ids.length === 0) return;
  const { connectionId, objectType } = scope;
  // The latest complete read that finished before this one began did not list any row this
  // one lists for the first time (it would have started a streak): they were pressed after it began.
  const [previous] = await tx<{ started_at: Date | null }[]>`
    select max(started_at) as started_at from sync_request_reads
    where connection_id = ${connectionId} and object_type = ${objectType}
      and finished_at <= ${page.startedAt}`;
  await tx`
    insert into sync_request_rows as a
      (connection_id, object_type, object_id, state, requested_after,
       seen_from, first_seen_by, last_seen_from, last_seen)
    select ${connectionId}, ${objectType}, id, 'REQUESTED', ${previous?.started_at ?? null}::timestamptz,
           ${page.startedAt}::timestamptz, ${page.seenBy}::timestamptz,
           ${page.startedAt}::timestamptz, ${page.seenBy}::timestamptz
    from unnest(${tx.array(ids)}::text[]) as id
    on conflict (connection_id, object_type, object_id) do update set
      state = 'REQUESTED',
      sync_request_id = case when a.state = 'GONE' then null else a.sync_request_id end,
      requested_after = case when a.state = 'GONE' then a.gone_from else a.requested_after end,
      seen_from = case when a.state = 'GONE' then excluded.seen_from else a.seen_from end,
      first_seen_by = case when a.state = 'GONE' then excluded.first_seen_by else a.first_seen_by end,
      last_seen_from = case when a.state = 'GONE' then excluded.last_seen_from
                            else greatest(a.last_seen_from, excluded.last_seen_from) end,
      last_seen = case when a.state = 'GONE' then excluded.last_seen
                       else greatest(a.last_seen, excluded.last_seen) end,
      gone_from = null,
      gone_by = null,
      updated_at = now()
    where a.state = 'REQUESTED' or a.gone_by <= excluded.seen_from`;
}

/**
 * A read whose every page has been recorded (recordRequestedPage) is complete: rows it did not
 * list, last seen before it began, end their streaks, and the read is kept for the next reads'
 * `requested_after`. A read cut short (its consumer stopped, the platform failed part-way) is
 * never ended: its pages still count as listings, and it says nothing about the rows it missed.
 */
export async function endRequestedRead(
  sql: Sql,
  scope: AttributionScope,
  read: RequestedRead,
): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${lockName(scope)}))`;
    await settleAnswered(tx, scope);
    await endRead(tx, scope, read);
  });
}

async function endRead(tx: TransactionSql, scope: AttributionScope, read: RequestedRead): Promise<void> {
  const ids = [...new Set(read.objectIds)];
  const { connectionId, objectType } = scope;
  await tx`
    update sync_request_rows
    set state = 'GONE', gone_from = ${read.startedAt}, gone_by = ${read.finishedAt}, updated_at = now()
    where connection_id = ${connectionId} and object_type = ${objectType} and state = 'REQUESTED'
      and last_seen <= ${read.startedAt}
      and object_id not in (select unnest(${tx.array(ids)}::text[]))`;
  await tx`
    insert into sync_request_reads (connection_id, object_type, started_at, finished_at)
    values (${connectionId}, ${objectType}, ${read.startedAt}, ${read.finishedAt})`;
  await assignOwners(tx, scope);
  await tx`
    delete from sync_request_reads
    where connection_id = ${connectionId} and object_type = ${objectType}
      and finished_at < now() - ${KEEP}::interval`;
  await tx`
    delete from sync_request_rows
    where connection_id = ${connectionId} and object_type = ${objectType}
      and ((state = 'GONE' and gone_by < now() - ${KEEP}::interval)
        or (state = 'REQUESTED' and last_seen < now() - ${KEEP}::interval))`;
}

/**
 * Records one complete read taken as a whole (its rows all seen by its end) and re-attributes the
 * scope's requested rows: the listing and the end of recordRequestedPage and endRequestedRead,
 * in one transaction.
 */
export async function recordRequestedRead(
  sql: Sql,
  scope: AttributionScope,
  read: RequestedRead,
): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${lockName(scope)}))`;
    await settleAnswered(tx, scope);
    await listRows(tx, scope, {
      objectIds: read.objectIds,
      startedAt: read.startedAt,
      seenBy: read.finishedAt,
    });
    await endRead(tx, scope, read);
  });
}

/**
 * Of `objectIds`, the rows attributed to this request that no acknowledged result has answered
 * yet: what a run still has to answer of a page it is about to write, and what a watchdog knows
 * is still unanswered before it reads anything (all of the request's rows, `objectIds` omitted).
 */
export async function unansweredOwnRows(
  sql: Sql,
  scope: AttributionScope,
  syncRequestId: string,
  objectIds?: readonly string[],
): Promise<string[]> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${lockName(scope)}))`;
    await settleAnswered(tx, scope);
    const rows = await tx<{ object_id: string }[]>`
      select object_id from sync_request_rows
      where sync_request_id = ${syncRequestId} and state = 'REQUESTED'
        and connection_id = ${scope.connectionId} and object_type = ${scope.objectType}
        and (${objectIds === undefined} or object_id = any(${tx.array([...(objectIds ?? [])])}::text[]))
      order by object_id`;
    return rows.map((r) => r.object_id);
  }) as Promise<string[]>;
}

/** The rows the latest reads attribute to this request and that are still requested. */
export async function ownedRows(sql: Sql, scope: AttributionScope, syncRequestId: string): Promise<string[]> {
  const rows = await sql<{ object_id: string }[]>`
    select object_id from sync_request_rows
    where sync_request_id = ${syncRequestId} and state = 'REQUESTED'
      and connection_id = ${scope.connectionId} and object_type = ${scope.objectType}
    order by object_id`;
  return rows.map((r) => r.object_id);
}

/**
 * Whether rows attributed to this request may still wait for a result: some were listed by the
 * latest reads and no acknowledged result answered them since. Answers the question from the
 * database alone, so a request its run answered in full costs its watchdog no read.
 */
export async function hasUnansweredRows(
  sql: Sql,
  scope: AttributionScope,
  syncRequestId: string,
): Promise<boolean> {
  return (await unansweredOwnRows(sql, scope, syncRequestId)).length > 0;
}

/**
 * Rows attributed to another request whose run has already answered it, and whose window is still
 * open: a read after that run ended gave them to it (its press explains them), and no run of that
 * request reads again. Returned by request, so a run that read them can answer them under their
 * own request's id instead of leaving them to that request's watchdog.
 */
export async function rowsOfEndedRuns(
  sql: Sql,
  scope: AttributionScope,
  exceptRequestId: string,
): Promise<Map<string, string[]>> {
  const syncType = BUTTON_OBJECTS[scope.objectType].syncType;
  const rows = (await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${lockName(scope)}))`;
    // Rows whose answer was acknowledged end their streak here; rows with an answer on its way
    // (an outcome in the sync ledger since the streak began) are left to it.
    await settleAnswered(tx, scope);
    return unansweredRowsOfEndedRuns(tx, { ...scope, syncType }, exceptRequestId);
  })) as { sync_request_id: string; object_id: string }[];
  const byRequest = new Map<string, string[]>();
  for (const row of rows)
    byRequest.set(row.sync_request_id, [...(byRequest.get(row.sync_request_id) ?? []), row.object_id]);
  return byRequest;
}
