import type { Sql } from 'postgres';
import type { MigrationRow } from '../types.ts';
import { MIGRATION_COLUMNS, type RawMigrationRow, toMigrationRow } from './migration-row.ts';

/** The most recent migration, whatever its state (for status and for "already switched"). */
export async function latestMigration(sql: Sql): Promise<MigrationRow | null> {
  const [row] = await sql.unsafe<RawMigrationRow[]>(
    `select ${MIGRATION_COLUMNS} from migrations order by id desc limit 1`,
  );
  return row ? toMigrationRow(row) : null;
}
