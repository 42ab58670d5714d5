// Data access of the mirror: owns the table id_map, one row per ERP item of a scope (connection,
// kind, parent) with the platform's id for it and the state last sent or refused.
import type { Sql } from 'postgres';
import type { MappedRow, MapScope, RemoteItem } from './model.ts';
import type { Visibility } from './types.ts';

// Types

export interface AppliedChange {
  remoteId: string;
  svcId: string;
  isActive: boolean;
  /** Unchanged when omitted (a DELETE changes only is_active). */
  hash?: string;
  visibility?: Visibility;
}

export interface RefusedItem {
  remoteId: string;
  /** The content hash that was refused: not sent again until the ERP changes it. */
  hash: string;
  reason: string;
}

// Reads

/** Every id_map row of one scope (connection, kind, parent), by remote id. */
export async function loadRows(sql: Sql, scope: MapScope): Promise<Map<string, MappedRow>> {
  const rows = await sql<
    {
      remote_id: string;
      svc_id: string | null;
      content_hash: string;
      is_active: boolean;
      visibility: Visibility;
      failed_hash: string | null;
      last_error: string | null;
    }[]
  >`
    select remote_id, svc_id, content_hash, is_active, visibility, failed_hash, last_error
      from id_map
     where connection_id = ${scope.connectionId} and kind = ${scope.kind}
       and parent_remote_id = ${scope.parentRemoteId}`;
  const byRemote = new Map<string, MappedRow>();
  for (const r of rows) {
    byRemote.set(r.remote_id, {
      remoteId: r.remote_id,
      svcId: r.svc_id,
      hash: r.content_hash,
      isActive: r.is_active,
      visibility: r.visibility,
      failedHash: r.failed_hash,
      lastError: r.last_error,
    });
  }
  return byRemote;
}

// Writes

/**
 * Records items the platform holds (just uploaded, or adopted after DEVELOPER_7020): svc_id and
 * the state as the platform reported it, in one statement per batch. Clears any earlier failure.
 */
export async function recordMapped(sql: Sql, scope: MapScope, items: readonly RemoteItem[]): Promise<void> {
  if (items.length === 0) return;
  await sql`
    insert into id_map (connection_id, kind, parent_remote_id, remote_id, svc_id, content_hash, is_active,
                        visibility, last_error, failed_hash, updated_at)
    select ${scope.connectionId}, ${scope.kind}, ${scope.parentRemoteId}, r, s, h, a, v, null, null, now()
      from unnest(${sql.array(items.map((i) => i.remoteId))}::text[],
                  ${sql.array(items.map((i) => i.svcId))}::text[],
                  ${sql.array(items.map((i) => i.hash))}::text[],
                  ${sql.array(items.map((i) => i.isActive))}::boolean[],
                  ${sql.array(items.map((i) => i.visibility))}::text[]) as t(r, s, h, a, v)
    on conflict (connection_id, kind, parent_remote_id, remote_id) do update
      set svc_id = excluded.svc_id, content_hash = excluded.content_hash, is_active = excluded.is_active,
          visibility = excluded.visibility, last_error = null, failed_hash = null, updated_at = now()`;
}

/**
 * Records a PATCH or DELETE the platform applied. Only the row still mapped to the same svc_id
 * is updated (state checked in SQL); returns whether it was.
 */
export async function recordChange(sql: Sql, scope: MapScope, change: AppliedChange): Promise<boolean> {
  const rows = await sql`
    update id_map
       set content_hash = coalesce(${change.hash ?? null}, content_hash),
           visibility = coalesce(${change.visibility ?? null}, visibility),
           is_active = ${change.isActive}, last_error = null, failed_hash = null, updated_at = now()
     where connection_id = ${scope.connectionId} and kind = ${scope.kind}
       and parent_remote_id = ${scope.parentRemoteId} and remote_id = ${change.remoteId}
       and svc_id = ${change.svcId}`;
  return rows.count === 1;
}

/**
 * Records items the platform (or the local schema check) refused. A new item gets a row without
 * svc_id; a mirrored one keeps its svc_id and content hash, and only notes the failure.
 */
export async function recordFailure(sql: Sql, scope: MapScope, items: readonly RefusedItem[]): Promise<void> {
  if (items.length === 0) return;
  await sql`
    insert into id_map (connection_id, kind, parent_remote_id, remote_id, svc_id, content_hash, failed_hash,
                        last_error, updated_at)
    select ${scope.connectionId}, ${scope.kind}, ${scope.parentRemoteId}, r, null, h, h, e, now()
      from unnest(${sql.array(items.map((i) => i.remoteId))}::text[],
                  ${sql.array(items.map((i) => i.hash))}::text[],
                  ${sql.array(items.map((i) => i.reason.slice(0, 2000)))}::text[]) as t(r, h, e)
    on conflict (connection_id, kind, parent_remote_id, remote_id) do update
      set failed_hash = excluded.failed_hash, last_error = excluded.last_error, updated_at = now()`;
}

/**
 * Drops the row of an item the platform no longer knows (404 on PATCH/DELETE: the connection was
 * unlinked and its chart removed, docs/platform.md G13). The next run uploads the item again.
 */
export async function forgetRow(sql: Sql, scope: MapScope, remoteId: string, svcId: string): Promise<void> {
  await sql`
    delete from id_map
     where connection_id = ${scope.connectionId} and kind = ${scope.kind}
       and parent_remote_id = ${scope.parentRemoteId} and remote_id = ${remoteId} and svc_id = ${svcId}`;
}

/** Forgets every mapping of a connection (a rebuild of its id_map starts from nothing). */
export async function forgetConnection(sql: Sql, connectionId: string): Promise<void> {
  await sql`delete from id_map where connection_id = ${connectionId}`;
}

/** Mappings of a connection that have a platform id: zero means its chart was never mirrored. */
export async function countMirrored(sql: Sql, connectionId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from id_map where connection_id = ${connectionId} and svc_id is not null`;
  return row?.n ?? 0;
}

/** Per chart kind: items mirrored, and items whose last mirror attempt failed. */
export async function chartCounts(
  sql: Sql,
  connectionId: string,
): Promise<{ kind: string; mirrored: number; failing: number }[]> {
  return sql<{ kind: string; mirrored: number; failing: number }[]>`
    select kind, count(*) filter (where svc_id is not null)::int as mirrored, count(*) filter (where last_error is not null)::int as failing
    from id_map where connection_id = ${connectionId} group by kind order by kind`;
}
