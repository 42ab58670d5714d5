import type { Sql } from 'postgres';
import { ZodError } from 'zod';
import type { Logger } from '../../log.ts';
import type { PlatformClient } from '../../platform/index.ts';
import { issuesText } from '../../zod-issues.ts';
import { withAdvisoryLock } from '../advisory-lock.ts';
import { type MirrorProgress, mirrorChart, mirrorLockName } from '../mirror/index.ts';
import { backupChartSource, type SkippedItem } from './backup-chart-source.ts';
import { ChartBackup, readBackupFile } from './backup-file.ts';
import { connectionLabel } from './blockers.ts';
import { type RebuiltCounts, rebuildIdMap } from './rebuild-id-map.ts';
import { type PreloadCounts, preloadCounts } from './step-preload.ts';
import { loadBackup, openMigration } from './store.ts';

type RestoreFrom =
  /** A JSON backup file (`migrate prepare` writes one per migration). */
  | { file: string }
  /** The copy kept in chart_backups, by the number of the migration that took it. */
  | { migrationId: string };

export interface RestoreOptions {
  /** The connection to upload the chart onto: active or inactive. */
  connectionId: string;
  from: RestoreFrom;
  signal?: AbortSignal;
  onProgress?: (progress: MirrorProgress) => void;
}

export interface RestoreResult {
  /** restored: every item is on the connection; incomplete: some were refused or skipped. */
  outcome: 'restored' | 'incomplete' | 'busy';
  connectionId: string;
  backup: {
    origin: 'file' | 'database';
    file: string | null;
    migrationId: string;
    /** The connection the chart was backed up from. */
    connectionId: string;
    takenAt: string;
    sha256: string | null;
    counts: Record<string, number>;
  };
  /** What the connection held before the upload, read back into id_map (null when busy). */
  found: RebuiltCounts | null;
  kinds: PreloadCounts;
  /** Backed-up items that cannot be uploaded as they are (not read, or not valid). */
  skipped: SkippedItem[];
  /** Items the platform refused. */
  failures: Array<{
    kind: string;
    remoteId: string;
    parentRemoteId?: string;
    action: string;
    reason: string;
  }>;
  writeCalls: number;
  notes: string[];
}

/** The input cannot be used (file, backup number or connection): the message says which and why. */
export class RestoreInputError extends Error {
  override name = 'RestoreInputError';
}

export interface RestoreDeps {
  sql: Sql;
  platform: PlatformClient;
  log: Logger;
}

/**
 * `migrate restore`: uploads a backed-up chart onto a connection again (the active one after a
 * switch went wrong and its chart was lost, or a fresh inactive one), from the JSON file or from
 * the copy in chart_backups. First the connection's id_map is read back from the platform
 * (rebuild-id-map.ts), so what is still there is adopted rather than uploaded again and what is
 * gone is uploaded; then the backup goes through the chart mirror as its source, with the
 * mirror's diff, all-or-nothing batches of 500 and DEVELOPER_7020 adoption (docs/platform.md F12).
 * So a restore interrupted anywhere is finished by running it again, and a second run writes
 * nothing. The connection ends up holding the backup: items it holds and the backup does not are
 * deactivated (DELETE, which a later PATCH reactivates, G17). New svc_ids are the platform's.
 */
export async function restoreChart(deps: RestoreDeps, options: RestoreOptions): Promise<RestoreResult> {
  const loaded = await loadChartBackup(deps.sql, options.from);
  const target = await checkTarget(deps, options.connectionId);
  const notes = [...loaded.notes];
  if (loaded.backup.connection.id !== target) {
    notes.push(
      `The chart was backed up from connection ${connectionLabel(loaded.backup.connection)} and is restored onto ${target}.`,
    );
  }
  const { source, skipped } = backupChartSource(loaded.backup.chart);
  const result: RestoreResult = {
    outcome: 'busy',
    connectionId: target,
    backup: {
      origin: 'file' in options.from ? 'file' : 'database',
      file: loaded.file,
      migrationId: loaded.backup.migration_id,
      connectionId: loaded.backup.connection.id,
      takenAt: loaded.backup.taken_at,
      sha256: loaded.sha256,
      counts: loaded.backup.counts,
    },
    found: null,
    kinds: {},
    skipped,
    failures: [],
    writeCalls: 0,
    notes,
  };
  const found = await withAdvisoryLock(deps.sql, mirrorLockName(target), () => rebuildIdMap(deps, target));
  if (found.busy) return result;
  result.found = found.value;
  const summary = await mirrorChart(
    {
      sql: deps.sql,
      erp: source,
      platform: deps.platform,
      connectionId: target,
      log: deps.log,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    },
    { accountingConnectionId: target, ...(options.signal ? { signal: options.signal } : {}) },
  );
  if (summary.busy) return result;
  result.kinds = preloadCounts(summary);
  result.failures = Object.entries(summary.kinds).flatMap(([kind, s]) =>
    s.failed.map((f) => ({ kind, ...f })),
  );
  result.writeCalls = summary.writeCalls;
  result.outcome = result.failures.length + skipped.length === 0 ? 'restored' : 'incomplete';
  deps.log.info(
    { connectionId: target, migration: loaded.backup.migration_id, writeCalls: summary.writeCalls },
    'chart backup restored',
  );
  return result;
}

async function loadChartBackup(
  sql: Sql,
  from: RestoreFrom,
): Promise<{ backup: ChartBackup; file: string | null; sha256: string | null; notes: string[] }> {
  if ('file' in from) {
    let read: Awaited<ReturnType<typeof readBackupFile>>;
    try {
      read = await readBackupFile(from.file);
    } catch (error) {
      const why =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'no such file'
          : error instanceof SyntaxError
            ? `not JSON (${error.message})`
            : error instanceof ZodError
              ? 'not a ledgersync chart backup (format ledgersync.chart-backup/1)'
              : error instanceof Error
                ? error.message
                : String(error);
      throw new RestoreInputError(`Cannot restore from ${from.file}: ${why}.`);
    }
    const notes: string[] = [];
    const stored = await loadBackup(sql, read.backup.migration_id).catch(() => null);
    if (stored && stored.sha256 !== read.sha256 && stored.connectionId === read.backup.connection.id) {
      notes.push(
        `${from.file} differs from the copy migration #${read.backup.migration_id} stored (sha256 ${stored.sha256.slice(0, 12)}…): the file as it is now is restored.`,
      );
    }
    return { backup: read.backup, file: from.file, sha256: read.sha256, notes };
  }
  if (!/^\d+$/.test(from.migrationId)) {
    throw new RestoreInputError(
      `--from-backup takes a migration number (as \`migrate status\` shows it), not "${from.migrationId}".`,
    );
  }
  const stored = await loadBackup(sql, from.migrationId, { withDocument: true });
  if (!stored) {
    throw new RestoreInputError(
      `Migration #${from.migrationId} has no chart backup in the database. \`npx ledgersync migrate status\` shows the latest migration and its backup; --from-file reads a backup file.`,
    );
  }
  const parsed = ChartBackup.safeParse(stored.document);
  if (!parsed.success) {
    throw new RestoreInputError(
      `The backup of migration #${from.migrationId} in the database cannot be read: ${issuesText(parsed.error)}`,
    );
  }
  return { backup: parsed.data, file: stored.filePath, sha256: stored.sha256, notes: [] };
}

/** The connection exists, takes API writes (G25), and is not the new connection of an open migration. */
async function checkTarget(deps: RestoreDeps, connectionId: string): Promise<string> {
  const connection = await deps.platform.connection.get(connectionId);
  if (!connection) throw new RestoreInputError(`Connection ${connectionId} is not on the platform.`);
  if (connection.connection_type !== 'API') {
    throw new RestoreInputError(
      `Connection ${connectionId} is a ${connection.connection_type} connection: its chart cannot be written by API (docs/platform.md G25). Restore onto an API connection.`,
    );
  }
  const open = await openMigration(deps.sql);
  if (open && open.targetConnectionId === connectionId) {
    throw new RestoreInputError(
      `Connection ${connectionId} is the new connection of migration #${open.id} (state ${open.state}): restoring the old chart onto it would undo its preload. Restore onto another connection, or drop the migration first with \`npx ledgersync migrate abandon\`.`,
    );
  }
  return connection.id;
}
