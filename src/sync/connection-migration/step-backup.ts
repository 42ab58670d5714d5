import { BACKUP_FORMAT, backupPath, type ChartBackup, writeBackupFile } from './backup-file.ts';
import { chartCounts, readPlatformChart } from './platform-chart.ts';
import { checkpoint, moved, type StepContext, type StepOutcome } from './step-context.ts';
import { saveBackup } from './store.ts';

/**
 * Step 2: back up the chart of the connection being left, every item with its svc_id and state
 * as the platform holds it, because the switch drops historical codings (docs/platform.md G30). The
 * file is written first (whole or not at all), then the same document goes to chart_backups in
 * the transaction that moves the migration on.
 */
export async function backupStep(ctx: StepContext): Promise<StepOutcome> {
  const { deps, options, row } = ctx;
  const connection = await deps.platform.connection.get(row.sourceConnectionId);
  const chart = await readPlatformChart(deps.platform, row.sourceConnectionId);
  const counts = chartCounts(chart);
  const backup: ChartBackup = {
    format: BACKUP_FORMAT,
    migration_id: row.id,
    taken_at: new Date().toISOString(),
    connection: connection ?? { id: row.sourceConnectionId, remote_provider_name: '', connection_type: '' },
    counts,
    chart,
  };
  const path = backupPath(options.backupDir, row.sourceConnectionId, row.startedAt);
  const sha256 = await writeBackupFile(path, backup);
  if (chart.unreadable.length > 0) {
    ctx.notes.push(
      `${chart.unreadable.length} chart items the platform sent could not be read; the backup keeps their ids and errors.`,
    );
  }
  await checkpoint(ctx, 'backup', 'applied');
  const itemCount = Object.values(counts).reduce((n, c) => n + c, 0);
  const next = moved(
    await saveBackup(deps.sql, {
      migrationId: row.id,
      connectionId: row.sourceConnectionId,
      filePath: path,
      itemCount,
      counts,
      sha256,
      document: backup,
    }),
    row.id,
    'checked',
    'backed_up',
  );
  const summary = Object.entries(counts)
    .map(([list, n]) => `${n} ${list.replaceAll('_', ' ')}`)
    .join(', ');
  return { ok: true, row: next, detail: `chart backed up (${summary}) to ${path}`, backupFile: path };
}
