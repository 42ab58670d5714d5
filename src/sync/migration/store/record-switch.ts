import type { Sql } from 'postgres';
import type { MigrationRow } from '../types.ts';
import { moveMigration } from './move-migration.ts';

/**
 * The customer switched (docs/platform.md G31, last row): the target is now the active connection.
 * Moves ready → switched and makes the target the primary connection, in one transaction.
 */
export async function recordSwitch(
  sql: Sql,
  id: string,
  connections: { source: string; target: string },
): Promise<MigrationRow | null> {
  return sql.begin(async (tx) => {
    const moved = await moveMigration(tx as unknown as Sql, id, 'ready', 'switched');
    if (!moved) return null;
    await tx`update connections set is_active = false where id = ${connections.source}`;
    await tx`update connections set is_active = true, role = 'primary' where id = ${connections.target}`;
    return moved;
  });
}
