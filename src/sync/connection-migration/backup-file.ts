import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { PlatformChart } from './platform-chart.ts';

/**
 * The chart backup as a JSON file: what the platform held for the connection being left, item by
 * item with svc_id and state, because the switch drops historical codings (docs/platform.md G30).
 * The same document is stored in chart_backups.
 */
export const BACKUP_FORMAT = 'ledgersync.chart-backup/1';
export const DEFAULT_BACKUP_DIR = '.ledgersync/backups';

export const ChartBackup = z.object({
  format: z.literal(BACKUP_FORMAT),
  migration_id: z.string(),
  taken_at: z.string(),
  connection: z.looseObject({
    id: z.string(),
    remote_provider_name: z.string().nullable(),
    connection_type: z.string(),
  }),
  counts: z.record(z.string(), z.number()),
  chart: PlatformChart,
});
export type ChartBackup = z.infer<typeof ChartBackup>;

/** 2025-01-06T10:00:00.123Z → 20250106T100000Z: sortable, no ':' (safe in every file system). */
export function fileTimestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll('-', '')
    .replaceAll(':', '');
}

/**
 * `<connection>-<timestamp>.json`, the timestamp being the migration's start: a re-run after a
 * crash rewrites the same file instead of leaving a second one.
 */
export function backupPath(dir: string, connectionId: string, startedAt: Date): string {
  const safe = connectionId.replace(/[^A-Za-z0-9._-]/g, '_');
  return resolve(join(dir, `${safe}-${fileTimestamp(startedAt)}.json`));
}

/** Writes the file whole or not at all (temporary file, then rename); returns its sha256. */
export async function writeBackupFile(path: string, backup: ChartBackup): Promise<string> {
  const bytes = `${JSON.stringify(backup, null, 2)}\n`;
  await mkdir(resolve(path, '..'), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, bytes, { encoding: 'utf8', mode: 0o600 });
  await rename(temporary, path);
  return sha256(bytes);
}

/** Reads a backup file back, checked against its format; the sha256 proves which bytes were read. */
export async function readBackupFile(path: string): Promise<{ backup: ChartBackup; sha256: string }> {
  const bytes = await readFile(path, 'utf8');
  return { backup: ChartBackup.parse(JSON.parse(bytes)), sha256: sha256(bytes) };
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
