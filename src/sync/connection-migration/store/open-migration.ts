import type { Sql } from 'postgres';
import type { MigrationRow } from '../types.ts';
import { MIGRATION_COLUMNS, type RawMigrationRow, toMigrationRow } from './migration-row.ts';

/** The one migration not yet switched or abandoned (migrations_one_open), or null. */
export async function openMigration(sql: Sql): Promise<MigrationRow | null> {
  const [row] = await sql.unsafe<RawMigrationRow[]>(
    `select ${MIGRATION_COLUMNS} from migrations where state not in ('switched', 'abandoned') limit 1`,
  );
  return row ? toMigrationRow(row) : null;
}
