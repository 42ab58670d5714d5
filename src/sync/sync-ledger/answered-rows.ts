// Which sync-button rows a result has answered. These statements are about sync_request_rows
// (src/sync/sync-button/attribute-rows.ts runs them, under its attribution lock), but what
// answered a row is known only from the ledger (and the batch that carried the result): each is
// one SQL text, kept whole, and lives here because every statement that names sync_ledger does.
import type { TransactionSql } from 'postgres';

/** The requested rows of one connection and button object type, whose results have this sync type. */
export interface RequestedRowsScope {
  connectionId: string;
  objectType: string;
  syncType: string;
}

/**
 * A posted result ends the request for its row (docs/platform.md G28: a result, success or
 * failure, answers the row). A result frozen after a read had listed the row answered that
 * streak: the row is GONE, unless a read that began after the result was acknowledged lists it
 * again, in which case a press after the result requested it anew and a new streak begins there.
 * A read that overlaps the result tells nothing either way. A result the platform REJECTED
 * changed nothing, so it does not count.
 *
 * The ledger is looked up by each requested row's own key (the LATERAL ... LIMIT 1 cannot be
 * turned into a join): a join on the connection and sync type let the planner scan every result
 * of the type for each requested row (the generic plan a prepared statement gets after a few
 * runs), and this runs under the attribution lock on every page a press reads. Under
 * a bulk sync in the benchmark it took 150-570 ms as the ledger grew, the presses queued on the
 * lock behind it, and the sync button's p99 was 2.6-11 s instead of 1.2-1.5 s. One result per row:
 * the ledger's key is (connection, object, sync type). The requested rows are read a second time
 * (q) because a LATERAL in UPDATE ... FROM cannot refer to the table being updated.
 */
export async function settleAnsweredRows(tx: TransactionSql, scope: RequestedRowsScope): Promise<number> {
  const { syncType } = scope;
  const updated = await tx`
    update sync_request_rows a set
      state = case when a.last_seen_from > r.answered_by then 'REQUESTED' else 'GONE' end,
      sync_request_id = case when a.last_seen_from > r.answered_by then null else a.sync_request_id end,
      requested_after = case when a.last_seen_from > r.answered_by then r.answered_from else a.requested_after end,
      seen_from = case when a.last_seen_from > r.answered_by then a.last_seen_from else a.seen_from end,
      first_seen_by = case when a.last_seen_from > r.answered_by then a.last_seen else a.first_seen_by end,
      gone_from = case when a.last_seen_from > r.answered_by then null else r.answered_from end,
      gone_by = case when a.last_seen_from > r.answered_by then null else r.answered_by end,
      updated_at = now()
    from (
      select q.object_id, x.answered_from, x.answered_by
      from sync_request_rows q
      cross join lateral (
        select b.created_at as answered_from, b.acked_at as answered_by
        from sync_ledger l join result_batches b on b.id = l.batch_id
        where l.connection_id = q.connection_id and l.object_id = q.object_id and l.sync_type = ${syncType}
          and l.state = 'REPORTED' and l.platform_status is distinct from 'REJECTED'
          and b.acked_at is not null
        limit 1
      ) x
      where q.connection_id = ${scope.connectionId} and q.object_type = ${scope.objectType}
        and q.state = 'REQUESTED'
    ) r
    where a.connection_id = ${scope.connectionId} and a.object_type = ${scope.objectType}
      and a.state = 'REQUESTED' and a.object_id = r.object_id
      and r.answered_from > a.first_seen_by`;
  return updated.count;
}

/**
 * Requested rows of the scope attributed to another request, other than `exceptRequestId`, that
 * its run has answered (state ANSWERED, its watchdog not failed, its window open for more than a
 * minute), and for which the ledger holds no outcome since the row's streak began: no answer is
 * on its way for them.
 */
export async function unansweredRowsOfEndedRuns(
  tx: TransactionSql,
  scope: RequestedRowsScope,
  exceptRequestId: string,
): Promise<{ sync_request_id: string; object_id: string }[]> {
  const { syncType } = scope;
  return tx<{ sync_request_id: string; object_id: string }[]>`
      select a.sync_request_id, a.object_id from sync_request_rows a
        join sync_requests r on r.sync_request_id = a.sync_request_id
       where a.connection_id = ${scope.connectionId} and a.object_type = ${scope.objectType}
         and a.state = 'REQUESTED' and a.sync_request_id <> ${exceptRequestId}
         and r.state = 'ANSWERED' and r.watchdog_failed = 0 and r.deadline > now() + interval '1 minute'
         and not exists (
           select 1 from sync_ledger l
            where l.connection_id = a.connection_id and l.sync_type = ${syncType}
              and l.object_id = a.object_id and l.updated_at >= a.seen_from
              and l.state in ('IN_ERP', 'FAILED', 'REPORTED'))
       order by a.sync_request_id, a.object_id`;
}
