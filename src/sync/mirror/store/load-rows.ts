import type { Sql } from 'postgres';
import type { MappedRow, MapScope } from '../model.ts';
import type { Visibility } from '../types.ts';

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
