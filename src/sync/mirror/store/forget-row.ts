import type { Sql } from 'postgres';
import type { MapScope } from '../model.ts';

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
