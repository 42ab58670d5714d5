import type { Sql } from 'postgres';
import type { MigrationRow } from '../types.ts';
import { moveMigration } from './move-migration.ts';

/** Unfinished work of the connection left, now the new connection's. */
export interface CarriedOver {
  /** Sync-ledger rows not yet acknowledged by the platform (claimed, in the ERP, or refused). */
  ledgerRows: number;
  /** Result batches frozen and not yet acknowledged: sent as frozen, under the same key. */
  batches: number;
  /** Sync-button requests still open. */
  syncRequests: number;
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
    const batches = await tx`
      update result_batches set connection_id = ${target}
       where connection_id = ${source} and state = 'FROZEN'`;
    // A row the new connection already has (it cannot, before this commit) is left where it is.
    const ledgerRows = await tx`
      update sync_ledger l set connection_id = ${target}, updated_at = now()
       where l.connection_id = ${source} and l.state <> 'REPORTED'
         and not exists (
           select 1 from sync_ledger n
            where n.connection_id = ${target} and n.object_id = l.object_id and n.sync_type = l.sync_type)`;
    const syncRequests = await tx`
      update sync_requests set connection_id = ${target}
       where connection_id = ${source} and state = 'OPEN'`;
    return {
      row: moved,
      carried: { ledgerRows: ledgerRows.count, batches: batches.count, syncRequests: syncRequests.count },
    };
  });
}
