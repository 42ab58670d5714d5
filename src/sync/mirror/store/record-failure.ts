import type { Sql } from 'postgres';
import type { MapScope } from '../model.ts';

export interface RefusedItem {
  remoteId: string;
  /** The content hash that was refused: not sent again until the ERP changes it. */
  hash: string;
  reason: string;
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
