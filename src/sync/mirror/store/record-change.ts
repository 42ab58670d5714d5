import type { Sql } from 'postgres';
import type { MapScope } from '../model.ts';
import type { Visibility } from '../types.ts';

export interface AppliedChange {
  remoteId: string;
  svcId: string;
  isActive: boolean;
  /** Unchanged when omitted (a DELETE changes only is_active). */
  hash?: string;
  visibility?: Visibility;
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
