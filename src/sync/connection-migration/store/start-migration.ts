import type { Sql } from 'postgres';
import type { MigrationRow } from '../types.ts';
import { MIGRATION_COLUMNS, type RawMigrationRow, toMigrationRow } from './migration-row.ts';

/**
 * Opens a migration in state 'started'. Null when another is already open: the partial unique
 * index migrations_one_open decides, so two processes racing here open one migration.
 */
export async function startMigration(
  sql: Sql,
  input: { sourceConnectionId: string; provider: string; targetConnectionId: string | null },
): Promise<MigrationRow | null> {
  const [row] = await sql.unsafe<RawMigrationRow[]>(
    `insert into migrations (source_connection_id, provider, target_connection_id, requested_target)
     values ($1, $2, $3, $4)
     on conflict ((true)) where state not in ('switched', 'abandoned') do nothing
     returning ${MIGRATION_COLUMNS}`,
    [input.sourceConnectionId, input.provider, input.targetConnectionId, input.targetConnectionId !== null],
  );
  return row ? toMigrationRow(row) : null;
}
