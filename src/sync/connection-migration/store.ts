// Data access of the connection migration. Owns the tables connection_migrations and chart_backups (and reads
// migration_states and migration_transitions, the state machine the moves are checked against).
// Recording a switch also moves the connection left's unfinished work to the new connection, so
// it writes connections, result_batches, sync_ledger and sync_requests in that one transaction.
// Its statements over those tables live in each table's home (sync_ledger in src/sync/sync-ledger/,
// result_batches in src/sync/reporting/, sync_requests in src/sync/sync-button/requests.ts): this
// module calls them.
import type { Sql } from 'postgres';
import { scrubString } from '../../secrets.ts';
import { carryOverFrozenBatches } from '../reporting/index.ts';
import { carryOverOpenRequests, moveOpenRequest } from '../sync-button/index.ts';
import { carryOverUnreportedRows, lastFailureMessages, unsentResultCounts } from '../sync-ledger/index.ts';
import type { MigrationState } from './states.ts';
import type { MigrationRow } from './types.ts';

// Types

/** The columns every store query returns for a migration. */
const MIGRATION_COLUMNS =
  'id, source_connection_id, provider, target_connection_id, requested_target, state, connections_before, ' +
  'outstanding, preload, verification, last_error, started_at, updated_at, ready_at, finished_at';

interface RawMigrationRow {
  id: string | number | bigint;
  source_connection_id: string;
  provider: string;
  target_connection_id: string | null;
  requested_target: boolean;
  state: string;
  connections_before: string[] | null;
  outstanding: unknown;
  preload: unknown;
  verification: unknown;
  last_error: string | null;
  started_at: Date;
  updated_at: Date;
  ready_at: Date | null;
  finished_at: Date | null;
}

function toMigrationRow(raw: RawMigrationRow): MigrationRow {
  return {
    id: String(raw.id),
    sourceConnectionId: raw.source_connection_id,
    provider: raw.provider,
    targetConnectionId: raw.target_connection_id,
    requestedTarget: raw.requested_target,
    state: raw.state as MigrationState,
    connectionsBefore: raw.connections_before,
    outstanding: raw.outstanding,
    preload: raw.preload,
    verification: raw.verification,
    lastError: raw.last_error,
    startedAt: raw.started_at,
    updatedAt: raw.updated_at,
    readyAt: raw.ready_at,
    finishedAt: raw.finished_at,
  };
}

export interface MoveDetails {
  outstanding?: unknown;
  preload?: unknown;
  verification?: unknown;
}

export interface StoredBackup {
  migrationId: string;
  connectionId: string;
  filePath: string;
  itemCount: number;
  counts: Record<string, number>;
  sha256: string;
  document: unknown;
  takenAt: Date;
}

export interface BackupRecord {
  migrationId: string;
  connectionId: string;
  filePath: string;
  itemCount: number;
  counts: Record<string, number>;
  sha256: string;
  document: unknown;
}

/** Unfinished work of the connection left, now the new connection's. */
export interface CarriedOver {
  /** Sync-ledger rows not yet acknowledged by the platform (claimed, in the ERP, or refused). */
  ledgerRows: number;
  /** Result batches frozen and not yet acknowledged: sent as frozen, under the same key. */
  batches: number;
  /** Sync-button requests still open. */
  syncRequests: number;
}

// Reads

/** The one migration not yet switched or abandoned (migrations_one_open), or null. */
export async function openMigration(sql: Sql): Promise<MigrationRow | null> {
  const [row] = await sql.unsafe<RawMigrationRow[]>(
    `select ${MIGRATION_COLUMNS} from connection_migrations where state not in ('switched', 'abandoned') limit 1`,
  );
  return row ? toMigrationRow(row) : null;
}

/** The most recent migration, whatever its state (for status and for "already switched"). */
export async function latestMigration(sql: Sql): Promise<MigrationRow | null> {
  const [row] = await sql.unsafe<RawMigrationRow[]>(
    `select ${MIGRATION_COLUMNS} from connection_migrations order by id desc limit 1`,
  );
  return row ? toMigrationRow(row) : null;
}

/** The chart backup of a migration, as stored in Postgres; null when none was taken. */
export async function loadBackup(
  sql: Sql,
  migrationId: string,
  options: { withDocument?: boolean } = {},
): Promise<StoredBackup | null> {
  const [row] = await sql<
    {
      connection_id: string;
      file_path: string;
      item_count: number;
      counts: Record<string, number>;
      sha256: string;
      document: unknown;
      taken_at: Date;
    }[]
  >`
    select connection_id, file_path, item_count, counts, sha256, taken_at,
      ${options.withDocument ? sql`document` : sql`null::jsonb as document`}
    from chart_backups where migration_id = ${migrationId}`;
  if (!row) return null;
  return {
    migrationId,
    connectionId: row.connection_id,
    filePath: row.file_path,
    itemCount: row.item_count,
    counts: row.counts,
    sha256: row.sha256,
    document: row.document,
    takenAt: row.taken_at,
  };
}

/**
 * Where work addressed to `connectionId` goes once the customer has switched (docs/platform.md
 * G31, last row): the target of the latest recorded switch, when `connectionId` took part in a
 * recorded switch (as the connection left, or as an earlier target) and is not that target. Null
 * when no recorded switch concerns it. A deployment serves one customer, so the latest switch
 * names the connection in use; a later migration back is followed the same way.
 */
export async function connectionAfterSwitches(sql: Sql, connectionId: string): Promise<string | null> {
  const [row] = await sql<{ target: string }[]>`
    with latest as (
      select target_connection_id as target from connection_migrations
       where state = 'switched' and target_connection_id is not null
       order by finished_at desc nulls last, id desc
       limit 1)
    select target from latest
     where target <> ${connectionId}
       and exists (
         select 1 from connection_migrations
          where state = 'switched'
            and (source_connection_id = ${connectionId} or target_connection_id = ${connectionId}))`;
  return row?.target ?? null;
}

/** The last recorded failure message of each object, to say why it is still waiting. */
export async function failureReasons(
  sql: Sql,
  connectionId: string,
  objectIds: string[],
): Promise<Map<string, string>> {
  return lastFailureMessages(sql, connectionId, objectIds);
}

/**
 * Results of the connection being left that the platform has not acknowledged yet: frozen
 * batches not sent, and ledger rows written to the ERP (or refused) but not yet in a batch.
 * After the switch they could no longer be reported, so they count as outstanding.
 */
export async function unsentResults(
  sql: Sql,
  connectionId: string,
): Promise<{ batches: number; rows: number }> {
  return unsentResultCounts(sql, connectionId);
}

// Writes

/**
 * Opens a migration in state 'started'. Null when another is already open: the partial unique
 * index migrations_one_open decides, so two processes racing here open one migration.
 */
export async function startMigration(
  sql: Sql,
  input: { sourceConnectionId: string; provider: string; targetConnectionId: string | null },
): Promise<MigrationRow | null> {
  const [row] = await sql.unsafe<RawMigrationRow[]>(
    `insert into connection_migrations (source_connection_id, provider, target_connection_id, requested_target)
     values ($1, $2, $3, $4)
     on conflict ((true)) where state not in ('switched', 'abandoned') do nothing
     returning ${MIGRATION_COLUMNS}`,
    [input.sourceConnectionId, input.provider, input.targetConnectionId, input.targetConnectionId !== null],
  );
  return row ? toMigrationRow(row) : null;
}

/**
 * Moves a migration from `from` to `to` when migration_transitions allows it and the row is
 * still in `from` (the state machine is checked in SQL); clears last_error and stamps ready_at /
 * finished_at. Null when the move did not happen: another process moved it, or it is not allowed.
 */
export async function moveMigration(
  sql: Sql,
  id: string,
  from: MigrationState,
  to: MigrationState,
  details: MoveDetails = {},
): Promise<MigrationRow | null> {
  // postgres.js serializes a parameter typed jsonb itself: pass the value, not a JSON string.
  const json = (value: unknown) => (value === undefined ? null : value) as never;
  const [row] = await sql.unsafe<RawMigrationRow[]>(
    `update connection_migrations m set
       state = $3, updated_at = now(), last_error = null,
       outstanding = coalesce($4::jsonb, m.outstanding),
       preload = coalesce($5::jsonb, m.preload),
       verification = coalesce($6::jsonb, m.verification),
       ready_at = case when $3 = 'ready' then now() else m.ready_at end,
       finished_at = case when s.terminal then now() else m.finished_at end
     from migration_states s
     where m.id = $1 and m.state = $2 and s.state = $3
       and exists (select 1 from migration_transitions t where t.from_state = $2 and t.to_state = $3)
     returning ${MIGRATION_COLUMNS.split(', ')
       .map((c) => `m.${c}`)
       .join(', ')}`,
    [id, from, to, json(details.outstanding), json(details.preload), json(details.verification)],
  );
  return row ? toMigrationRow(row) : null;
}

/**
 * Updates what a repeated step found (a preload or verification run again in the same state)
 * without moving the state; only while the row is still in `state`.
 */
export async function recordDetails(
  sql: Sql,
  id: string,
  state: MigrationState,
  details: MoveDetails,
): Promise<void> {
  // postgres.js serializes a parameter typed jsonb itself: pass the value, not a JSON string.
  const json = (value: unknown) => (value === undefined ? null : value) as never;
  await sql.unsafe(
    `update connection_migrations set updated_at = now(),
       outstanding = coalesce($3::jsonb, outstanding),
       preload = coalesce($4::jsonb, preload),
       verification = coalesce($5::jsonb, verification)
     where id = $1 and state = $2`,
    [id, state, json(details.outstanding), json(details.preload), json(details.verification)],
  );
}

/** Why the last run stopped, shown by `migrate status`; scrubbed, never a secret. */
export async function recordError(sql: Sql, id: string, message: string): Promise<void> {
  await sql`update connection_migrations set last_error = ${scrubString(message).slice(0, 4000)}, updated_at = now()
    where id = ${id}`;
}

/**
 * Remembers the platform's connection ids before the first request for a new connection; kept
 * from the first call on (later calls change nothing), so a connection created by a run that
 * crashed before recording it is the one new id, and is adopted rather than created again.
 */
export async function snapshotConnections(sql: Sql, id: string, connectionIds: string[]): Promise<string[]> {
  const [row] = await sql<{ connections_before: string[] }[]>`
    update connection_migrations set connections_before = coalesce(connections_before, ${connectionIds}::text[])
    where id = ${id}
    returning connections_before`;
  return row?.connections_before ?? connectionIds;
}

/**
 * Stores the chart backup (replacing the one a crashed run stored) and moves the migration
 * checked → backed_up in the same transaction.
 */
export async function saveBackup(sql: Sql, backup: BackupRecord): Promise<MigrationRow | null> {
  return sql.begin(async (tx) => {
    await tx.unsafe(
      `insert into chart_backups (migration_id, connection_id, file_path, item_count, counts, sha256, document)
       values ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb)
       on conflict (migration_id) do update set connection_id = excluded.connection_id,
         file_path = excluded.file_path, item_count = excluded.item_count, counts = excluded.counts,
         sha256 = excluded.sha256, document = excluded.document, taken_at = now()`,
      [
        backup.migrationId,
        backup.connectionId,
        backup.filePath,
        backup.itemCount,
        backup.counts as never,
        backup.sha256,
        backup.document as never,
      ],
    );
    return moveMigration(tx as unknown as Sql, backup.migrationId, 'checked', 'backed_up');
  });
}

/**
 * Records the new inactive connection: in `connections` with role migration_target, on the
 * migration, and moves it backed_up → target_created, all in one transaction.
 */
export async function recordTarget(
  sql: Sql,
  id: string,
  target: { id: string; remoteProviderName: string; isActive: boolean },
): Promise<MigrationRow | null> {
  return sql.begin(async (tx) => {
    await tx`
      insert into connections (id, remote_provider_name, is_active, role)
      values (${target.id}, ${target.remoteProviderName}, ${target.isActive}, 'migration_target')
      on conflict (id) do update set remote_provider_name = excluded.remote_provider_name,
        is_active = excluded.is_active, role = 'migration_target'`;
    await tx`update connection_migrations set target_connection_id = ${target.id} where id = ${id} and state = 'backed_up'`;
    return moveMigration(tx as unknown as Sql, id, 'backed_up', 'target_created');
  });
}

/**
 * The customer switched (docs/platform.md G31, last row): the target is now the active connection.
 * In one transaction: moves ready → switched, makes the target the primary connection, and
 * carries the old connection's unfinished work over to it. Sync posts always reach the active
 * connection, so rows written to the ERP but not yet reported are reported from the new one
 * (exactly as frozen), and objects claimed but not finished are finished there, never posted a
 * second time. What was reported stays with the old connection as its history. The caller holds
 * the old connection's locks, so no run of it is moving these rows meanwhile.
 * Null when the migration was no longer ready (another process recorded the switch).
 */
export async function recordSwitch(
  sql: Sql,
  id: string,
  connections: { source: string; target: string },
): Promise<{ row: MigrationRow; carried: CarriedOver } | null> {
  const { source, target } = connections;
  return sql.begin(async (tx) => {
    const moved = await moveMigration(tx as unknown as Sql, id, 'ready', 'switched');
    if (!moved) return null;
    await tx`update connections set is_active = false where id = ${source}`;
    await tx`
      insert into connections (id, remote_provider_name, is_active, role)
      values (${target}, ${moved.provider}, true, 'primary')
      on conflict (id) do update set is_active = true, role = 'primary'`;
    const batches = await carryOverFrozenBatches(tx, { source, target });
    const ledgerRows = await carryOverUnreportedRows(tx, { source, target });
    const syncRequests = await carryOverOpenRequests(tx, { source, target });
    return {
      row: moved,
      carried: { ledgerRows, batches, syncRequests },
    };
  });
}

/** Drops an open migration (any open state → abandoned, as migration_transitions allows). */
export async function abandonMigration(sql: Sql, row: MigrationRow): Promise<MigrationRow | null> {
  return moveMigration(sql, row.id, row.state, 'abandoned');
}

/**
 * A sync-button request recorded under the connection the customer left (the webhook receiver
 * names the connection the worker started with) belongs to the connection the customer uses now:
 * its run and its watchdog read and answer it there. Only an open request of `from` moves.
 */
export async function rehomeSyncRequest(
  sql: Sql,
  syncRequestId: string,
  connections: { from: string; to: string },
): Promise<boolean> {
  return moveOpenRequest(sql, syncRequestId, connections);
}
