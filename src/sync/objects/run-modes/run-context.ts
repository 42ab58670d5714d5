import type { Sql } from 'postgres';
import type { ErpAdapter } from '../../../erp/index.ts';
import type { Logger } from '../../../log.ts';
import type { ReportContext, ReportCounts } from '../../reporting/index.ts';
import { kindSpec, type ObjectKindName } from '../kinds.ts';
import type { SyncPlatform } from '../platform-port.ts';
import { ResultSender } from './result-sender.ts';
import type { WritePagesOptions } from './write-pages.ts';

export interface ObjectSyncDeps {
  sql: Sql;
  erp: ErpAdapter;
  platform: SyncPlatform;
  connectionId: string;
  log: Logger;
  /** Called after every page: progress for long runs. */
  onProgress?: (progress: ObjectSyncSummary) => void;
}

export interface ObjectSyncOptions {
  /** Sync-button run: read requested rows only and post with this id (docs/platform.md G28). */
  syncRequestId?: string;
  /** Most cursors reading at once (they split the data between them); 1 = one cursor. */
  slices?: number;
  /** Pages read ahead of the ERP writes. */
  readAhead?: number;
  /** Pages written to the ERP at once. */
  pageConcurrency?: number;
  /**
   * Take part in a run another process started (its id in read_runs) instead of starting one:
   * no kind lock (the sync ledger's claims keep every write single), only the ranges left.
   */
  joinRunId?: string;
  /** A joined run stops reading between pages once this is aborted (a press, a shutdown), and reports what it wrote. */
  signal?: AbortSignal;
  /**
   * False: other processes may not join this run (no shared plan in PostgreSQL). A sync of every
   * kind side by side holds its date-split reading to a share of the window (side-by-side.ts);
   * a joined process would read outside that share and take the permits the one-cursor kinds
   * need. Default true.
   */
  joinable?: boolean;
}

export interface ObjectSyncSummary {
  kind: ObjectKindName;
  read: number;
  posted: number;
  failed: number;
  skipped: number;
  unreadable: number;
  /** Objects read that called for no write (bills the decision table leaves alone, G23). */
  nothingToSync: number;
  vendorsCreated: number;
  reported: ReportCounts;
  durationMs: number;
  /** True when another process was already running this sync; nothing was done. */
  busy: boolean;
  /** True when this was a share of a run another process started. */
  joined?: boolean;
}

/**
 * The settings every bulk sync uses unless told otherwise (the CLI, the job and the benchmark).
 * The rate rule, not the round trips, must set the pace, and the first window's burst must go as
 * fast as the process can send it (every later window repeats its timing). Twelve cursors send
 * the burst in rounds of twelve; forty pages read before the first write keep the writes out of
 * its way; three pages written at once overlap their round trips. Measured with
 * `npm run bench -- --only 1` (60,000 objects): 6 cursors and 8 pages ended at 32.3 s, 12 and 40
 * at 32.2 s, 16 and 48 at 32.3 s (more partial pages: 625-629 requests).
 */
export const SYNC_DEFAULTS = { slices: 12, readAhead: 40, pageConcurrency: 3 } as const;

export function emptySummary(kind: ObjectKindName): ObjectSyncSummary {
  return {
    kind,
    read: 0,
    posted: 0,
    failed: 0,
    skipped: 0,
    unreadable: 0,
    nothingToSync: 0,
    vendorsCreated: 0,
    reported: { batches: 0, items: 0, rejected: 0 },
    durationMs: 0,
    busy: false,
  };
}

/**
 * What every run starts with: its kind's registry entry, an empty summary, where its results are
 * reported (the run's own database, platform, connection and log) and the sender of its results
 * (with the press's id for a sync-button run).
 */
export function beginRun(deps: ObjectSyncDeps, kind: ObjectKindName, syncRequestId?: string) {
  const spec = kindSpec(kind);
  const summary = emptySummary(kind);
  const report: ReportContext = {
    sql: deps.sql,
    platform: deps.platform,
    connectionId: deps.connectionId,
    log: deps.log,
  };
  const results = new ResultSender(report, spec.syncTypes, summary.reported, syncRequestId);
  return { spec, summary, report, results };
}

/**
 * The page loop of a bulk run and of a share of one: the read-ahead fills before the first write
 * (the first window's burst goes as fast as the process can send it), several pages written at
 * once; the options given, else the defaults.
 */
export function bulkPageLoop(options: ObjectSyncOptions): WritePagesOptions {
  return {
    readAhead: options.readAhead ?? SYNC_DEFAULTS.readAhead,
    fillFirst: true,
    concurrency: options.pageConcurrency ?? SYNC_DEFAULTS.pageConcurrency,
  };
}
