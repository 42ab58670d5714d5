import type { Sql } from 'postgres';

export interface StoredBackup {
  migrationId: string;
  connectionId: string;
  filePath: string;
  itemCount: number;
  counts: Record<string, number>;
  sha256: string;
  document: unknown;
  takenAt: Date;
}

/** The chart backup of a migration, as stored in Postgres; null when none was taken. */
export async function loadBackup(
  sql: Sql,
  migrationId: string,
  options: { withDocument?: boolean } = {},
): Promise<StoredBackup | null> {
  const [row] = await sql<
    {
      connection_id: string;
      file_path: string;
      item_count: number;
      counts: Record<string, number>;
      sha256: string;
      document: unknown;
      taken_at: Date;
    }[]
  >`
    select connection_id, file_path, item_count, counts, sha256, taken_at,
      ${options.withDocument ? sql`document` : sql`null::jsonb as document`}
    from chart_backups where migration_id = ${migrationId}`;
  if (!row) return null;
  return {
    migrationId,
    connectionId: row.connection_id,
    filePath: row.file_path,
    itemCount: row.item_count,
    counts: row.counts,
    sha256: row.sha256,
    document: row.document,
    takenAt: row.taken_at,
  };
}
