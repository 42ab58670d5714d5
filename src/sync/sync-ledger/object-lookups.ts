// What the ledger knows of particular objects: for a dry run, a replay, a reconcile and a
// connection migration's list of what still waits.
import type { Sql } from 'postgres';

/** The objects among `ids` whose outcome is known and waits in the outbox (IN_ERP, FAILED). */
export async function outcomesInOutbox(
  sql: Sql,
  connectionId: string,
  ids: string[],
): Promise<{ object_id: string; sync_type: string }[]> {
  if (ids.length === 0) return [];
  return sql<{ object_id: string; sync_type: string }[]>`
          select object_id, sync_type from sync_ledger
          where connection_id = ${connectionId} and object_id in ${sql(ids)} and state in ('IN_ERP', 'FAILED')`;
}

/** The sync type of one ledger row of the object, or null when the ledger has none. */
export async function ledgerSyncType(
  sql: Sql,
  connectionId: string,
  objectId: string,
): Promise<string | null> {
  const [row] = await sql<{ sync_type: string }[]>`
    select sync_type from sync_ledger where connection_id = ${connectionId} and object_id = ${objectId} limit 1`;
  return row?.sync_type ?? null;
}

export interface LatestOutcome {
  outcome: string;
  error_message: string | null;
  platform_status: string | null;
  platform_reason: string | null;
}

/** The object's most recently updated ledger row: its outcome and what the platform did with it. */
export async function latestOutcome(
  sql: Sql,
  connectionId: string,
  objectId: string,
): Promise<LatestOutcome | undefined> {
  const [row] = await sql<LatestOutcome[]>`
      select outcome, error_message, platform_status, platform_reason from sync_ledger
      where connection_id = ${connectionId} and object_id = ${objectId}
      order by updated_at desc limit 1`;
  return row;
}

/** Ids among `ids` that ledgersync reported as a success for this sync type. */
export async function reportedByUs(
  sql: Sql,
  connectionId: string,
  syncType: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await sql<{ object_id: string }[]>`
    select object_id from sync_ledger
    where connection_id = ${connectionId} and sync_type = ${syncType} and outcome = 'success'
      and object_id in ${sql(ids)}`;
  return new Set(rows.map((r) => r.object_id));
}

/** The last recorded failure message of each object, to say why it is still waiting. */
export async function lastFailureMessages(
  sql: Sql,
  connectionId: string,
  objectIds: string[],
): Promise<Map<string, string>> {
  if (objectIds.length === 0) return new Map();
  const rows = await sql<{ object_id: string; error_message: string }[]>`
    select distinct on (object_id) object_id, error_message from sync_ledger
    where connection_id = ${connectionId} and object_id = any(${objectIds}::text[])
      and outcome = 'failure' and error_message is not null
    order by object_id, updated_at desc`;
  return new Map(rows.map((r) => [r.object_id, r.error_message]));
}
