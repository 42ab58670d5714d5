import type { Sql } from 'postgres';
import type { MigrationRow } from '../types.ts';
import { moveMigration } from './move-migration.ts';

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
    await tx`update migrations set target_connection_id = ${target.id} where id = ${id} and state = 'backed_up'`;
    return moveMigration(tx as unknown as Sql, id, 'backed_up', 'target_created');
  });
}
