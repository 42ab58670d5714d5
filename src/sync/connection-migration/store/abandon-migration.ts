import type { Sql } from 'postgres';
import type { MigrationRow } from '../types.ts';
import { moveMigration } from './move-migration.ts';

/** Drops an open migration (any open state → abandoned, as migration_transitions allows). */
export async function abandonMigration(sql: Sql, row: MigrationRow): Promise<MigrationRow | null> {
  return moveMigration(sql, row.id, row.state, 'abandoned');
}
