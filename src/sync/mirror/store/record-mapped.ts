import type { Sql } from 'postgres';
import type { MapScope, RemoteItem } from '../model.ts';

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
