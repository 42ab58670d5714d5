// Counts and listings over a connection's ledger, for `status`, the metrics endpoint, the demo
// and a connection migration's outstanding work.
import type { Sql } from 'postgres';

/**
 * Ids and references vary per object (uuids, invoice numbers, unknown GL ids, ERP references);
 * the reasons group better without them. A SQL regular expression, for regexp_replace.
 */
const VARYING_IN_FAILURE_MESSAGES = '[0-9a-f]{8}-[0-9a-f-]{27}|INV-[0-9]+|GL-[A-Z0-9-]+|ERP-[A-F0-9]+';

/**
 * Rows of these sync types by what became of them: reported and synced, reported and REJECTED by
 * the platform, reported as failed by category (ua user_actionable, tr transient, ni
 * needs_integrator), and not yet acknowledged (pending).
 */
export interface OutcomeCounts {
  synced: number;
  rejected: number;
  ua: number;
  tr: number;
  ni: number;
  pending: number;
}

export async function outcomeCounts(
  sql: Sql,
  connectionId: string,
  types: string[],
): Promise<OutcomeCounts | undefined> {
  const [counts] = await sql<OutcomeCounts[]>`
    select count(*) filter (where state = 'REPORTED' and outcome = 'success' and platform_status is distinct from 'REJECTED')::int as synced,
           count(*) filter (where state = 'REPORTED' and platform_status = 'REJECTED')::int as rejected,
           count(*) filter (where state = 'REPORTED' and error_category = 'user_actionable')::int as ua,
           count(*) filter (where state = 'REPORTED' and error_category = 'transient')::int as tr,
           count(*) filter (where state = 'REPORTED' and error_category = 'needs_integrator')::int as ni,
           count(*) filter (where state in ('PENDING', 'IN_ERP', 'FAILED'))::int as pending
    from sync_ledger where connection_id = ${connectionId} and sync_type in ${sql(types)}`;
  return counts;
}

/** A failure message, its varying parts masked, and how many reported failures share it. */
export interface FailureReasonCount {
  category: string;
  message: string;
  count: number;
}

/** The three most frequent reasons among reported failures of these sync types. */
export async function topFailureReasons(
  sql: Sql,
  connectionId: string,
  types: string[],
): Promise<FailureReasonCount[]> {
  return sql<FailureReasonCount[]>`
    select error_category as category, regexp_replace(error_message, ${VARYING_IN_FAILURE_MESSAGES}, '…', 'g') as message, count(*)::int as count
    from sync_ledger
    where connection_id = ${connectionId} and sync_type in ${sql(types)} and state = 'REPORTED' and outcome = 'failure'
    group by 1, 2 order by 3 desc limit 3`;
}

/**
 * The 20 failures a bookkeeper can act on (user_actionable) to show first: causes before
 * symptoms, then newest first. A bill payment follows its bill (docs/platform.md G23), so its
 * failure is mostly a symptom of the bill's (the bill not in the ERP); payments are written after
 * bills and would otherwise fill the list, hiding the bills' own failures, the ones to fix.
 */
export async function recentActionableFailures(
  sql: Sql,
  connectionId: string,
): Promise<{ syncType: string; objectId: string; category: string; message: string; at: string }[]> {
  return sql<{ syncType: string; objectId: string; category: string; message: string; at: string }[]>`
    select sync_type as "syncType", object_id as "objectId", error_category as category, error_message as message, updated_at as at
    from sync_ledger where connection_id = ${connectionId} and outcome = 'failure' and error_category = 'user_actionable'
    order by sync_type = 'BILL_PAYMENT_SYNC', updated_at desc limit 20`;
}

/**
 * Every failure message in the whole ledger, varying parts masked, most frequent first: their
 * counts add up to the failures. For the demo, whose pool's search_path is its own schema and
 * whose ledger holds one connection.
 */
export async function failureMessagesByFrequency(sql: Sql): Promise<{ message: string; n: number }[]> {
  return sql<{ message: string; n: number }[]>`
              select regexp_replace(error_message, ${VARYING_IN_FAILURE_MESSAGES}, '…', 'g') as message,
                     count(*)::int as n
              from sync_ledger where outcome = 'failure' group by 1 order by 2 desc, 1`;
}

/**
 * Known outcomes not yet in a result batch, per sync type. Cheap: uses the partial index
 * sync_ledger_unbatched.
 */
export async function unbatchedBySyncType(
  sql: Sql,
  connectionId: string,
): Promise<{ syncType: string; n: number }[]> {
  return sql<{ syncType: string; n: number }[]>`
    select sync_type as "syncType", count(*)::int as n from sync_ledger
    where connection_id = ${connectionId} and batch_id is null and state in ('IN_ERP', 'FAILED')
    group by sync_type`;
}

/** Reported rows per sync type: synced, REJECTED, and failed by category (as in OutcomeCounts). */
export async function reportedTotalsBySyncType(
  sql: Sql,
  connectionId: string,
): Promise<{ syncType: string; synced: number; rejected: number; ua: number; tr: number; ni: number }[]> {
  return sql<{ syncType: string; synced: number; rejected: number; ua: number; tr: number; ni: number }[]>`
    select sync_type as "syncType",
      count(*) filter (where outcome = 'success' and platform_status is distinct from 'REJECTED')::int as synced,
      count(*) filter (where platform_status = 'REJECTED')::int as rejected,
      count(*) filter (where outcome = 'failure' and error_category = 'user_actionable')::int as ua,
      count(*) filter (where outcome = 'failure' and error_category = 'transient')::int as tr,
      count(*) filter (where outcome = 'failure' and error_category = 'needs_integrator')::int as ni
    from sync_ledger where connection_id = ${connectionId} and state = 'REPORTED'
    group by sync_type`;
}

/**
 * Results of the connection being left that the platform has not acknowledged yet: frozen
 * batches not sent, and ledger rows written to the ERP (or refused) but not yet in a batch.
 * After the switch they could no longer be reported, so they count as outstanding. One statement
 * over result_batches and sync_ledger, kept whole: it lives here as every statement naming
 * sync_ledger does.
 */
export async function unsentResultCounts(
  sql: Sql,
  connectionId: string,
): Promise<{ batches: number; rows: number }> {
  const [row] = await sql<{ batches: number; rows: number }[]>`
    select
      (select count(*)::int from result_batches where connection_id = ${connectionId} and state = 'FROZEN') as batches,
      (select count(*)::int from sync_ledger where connection_id = ${connectionId} and state <> 'REPORTED') as rows`;
  return row ?? { batches: 0, rows: 0 };
}
