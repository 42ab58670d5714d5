import type { Sql } from 'postgres';
import type { MigrationRow } from '../types.ts';
import { moveMigration } from './move-migration.ts';

export interface BackupRecord {
  migrationId: string;
  connectionId: string;
  filePath: string;
  itemCount: number;
  counts: Record<string, number>;
  sha256: string;
  document: unknown;
}

/**
 * Stores the chart backup (replacing the one a crashed run stored) and moves the migration
 * checked → backed_up in the same transaction.
 */
export async function saveBackup(sql: Sql, backup: BackupRecord): Promise<MigrationRow | null> {
  return sql.begin(async (tx) => {
    await tx.unsafe(
      `insert into chart_backups (migration_id, connection_id, file_path, item_count, counts, sha256, document)
       values ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb)
       on conflict (migration_id) do update set connection_id = excluded.connection_id,
         file_path = excluded.file_path, item_count = excluded.item_count, counts = excluded.counts,
         sha256 = excluded.sha256, document = excluded.document, taken_at = now()`,
      [
        backup.migrationId,
        backup.connectionId,
        backup.filePath,
        backup.itemCount,
        backup.counts as never,
        backup.sha256,
        backup.document as never,
      ],
    );
    return moveMigration(tx as unknown as Sql, backup.migrationId, 'checked', 'backed_up');
  });
}
