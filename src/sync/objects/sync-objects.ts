import type { Sql } from 'postgres';
import type { ErpAdapter } from '../../erp/index.ts';
import type { Logger } from '../../log.ts';
import { withAdvisoryLock } from '../advisory-lock.ts';
import { connectionAfterSwitches } from '../connection-migration/index.ts';
import { addReport, freezeAndSend, type ReportCounts, sendFrozen } from '../reporting/index.ts';
import { releaseClosedRequests } from '../sync-ledger/index.ts';
import { applyPage } from './apply-page.ts';
import { kindSpec, type ObjectKindName } from './kinds.ts';
import { planPage, readObjects } from './plan-page.ts';
import type { ReadItem, SyncPlatform } from './platform-port.ts';
import { prefetch } from './prefetch.ts';
import { PostgresBoard, readerName } from './reading/postgres-board.ts';
import { type ReadOptions, readKind } from './reading/read-kind.ts';

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

/** Results are posted once 5,000 have gathered (F14), and whatever is left at the end. */
const FULL_BATCH = 5000;
/**
 * When the reading is down to its last pages (ReadOptions.onLastPages), what has gathered is
 * posted then if it is at least this many, so the final batch holds little more than those last
 * pages: its freeze, post and acknowledgement, which grow with its size, are what the run waits
 * for after its last read. One request more, a few hundred ms less at the end of a long run.
 */
const EARLY_LAST_BATCH = 1000;

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
 * Syncs one kind of ready object for one connection: page through the platform's ready objects,
 * write each into the ERP (at most once, by the sync ledger and the ERP's own idempotency), and
 * report every outcome through the frozen-batch outbox. Pages are read ahead of the ERP writes
 * and full result batches are sent while reading continues, so the rate budget stays busy.
 */
export async function syncObjects(
  deps: ObjectSyncDeps,
  kind: ObjectKindName,
  options: ObjectSyncOptions = {},
): Promise<ObjectSyncSummary> {
  const started = Date.now();
  // The token round trip overlaps the run's set-up in PostgreSQL (its lock, its plan) instead of
  // delaying the first read. A failure here is the first read's failure too (one token request
  // serves both), and is reported there.
  deps.platform.prepare?.().catch(() => undefined);
  if (options.joinRunId) {
    const summary = await runSync(deps, kind, options, options.signal ?? new AbortController().signal);
    return { ...summary, joined: true, durationMs: Date.now() - started };
  }
  const lockName = `ledgersync:sync:${deps.connectionId}:${kind}${options.syncRequestId ? `:${options.syncRequestId}` : ''}`;
  const outcome = await withAdvisoryLock(deps.sql, lockName, async (lockLost) =>
    // The customer switched to another connection after this run was addressed (a migration,
    // docs/platform.md G31): the switch moved this connection's unfinished work, so nothing is
    // run here; the next run is addressed to the new connection.
    (await connectionAfterSwitches(deps.sql, deps.connectionId))
      ? null
      : runSync(deps, kind, options, lockLost),
  );
  if (outcome.busy || outcome.value === null)
    return { ...emptySummary(kind), busy: true, durationMs: Date.now() - started };
  return { ...outcome.value, durationMs: Date.now() - started };
}

async function runSync(
  deps: ObjectSyncDeps,
  kind: ObjectKindName,
  options: ObjectSyncOptions,
  lockLost: AbortSignal,
): Promise<ObjectSyncSummary> {
  const spec = kindSpec(kind);
  const summary = emptySummary(kind);
  const started = Date.now();
  const report = { sql: deps.sql, platform: deps.platform, connectionId: deps.connectionId, log: deps.log };
  const button = options.syncRequestId ? { syncRequestId: options.syncRequestId } : {};
  const joining = Boolean(options.joinRunId);
  // Batches an earlier run froze but could not send go first, exactly as frozen (F15). A press
  // sends only its own, and leaves one another sender holds to it rather than wait
  // (reporting/report-results.ts freezeAndSend): the bulk run's batches (5,000 items a post) are
  // that run's to send, and a press that posted them before each of its pages kept its rows
  // waiting (docs/platform.md G28).
  if (!joining)
    addReport(
      summary.reported,
      await sendFrozen(report, {
        syncTypes: spec.syncTypes,
        ...(options.syncRequestId
          ? { syncRequestId: options.syncRequestId, whenLeased: 'skip' as const }
          : { whenLeased: 'wait' as const }),
      }),
    );
  const shared = await sharedReading(deps, kind, options);

  let sending: Promise<void> = Promise.resolve();
  let sendError: unknown = null;
  // Outcomes recorded since the last freeze, counted here rather than queried after every page.
  let gathered = 0;
  /** Freezes what has gathered (whole batches of at least minItems) and sends it, in turn. */
  const send = (minItems: number): Promise<void> => {
    gathered = 0;
    sending = sending.then(async () => {
      if (sendError) return;
      try {
        addReport(summary.reported, await freezeAndSend(report, spec.syncTypes, { ...button, minItems }));
      } catch (error) {
        sendError = error;
      }
    });
    return sending;
  };
  const sendWhenDue = (): Promise<void> => {
    // Sync-button results are posted as soon as they are ready; others once a batch is full.
    if (options.syncRequestId) return send(1);
    if (gathered >= FULL_BATCH) void send(FULL_BATCH);
    return Promise.resolve();
  };
  const pages = readKind(deps.platform, kind, {
    log: deps.log,
    requestedToSync: Boolean(options.syncRequestId),
    slices: options.slices ?? SYNC_DEFAULTS.slices,
    ...shared,
    // A joined share ends its reading when told to stop and writes every page it has read.
    ...(joining ? { stop: lockLost } : {}),
    // Only the run's starter posts early: its freeze takes what every process has gathered, and
    // a joined share's early post would be one request more for the same end.
    onLastPages: () => {
      if (!options.syncRequestId && !joining && gathered >= EARLY_LAST_BATCH) void send(EARLY_LAST_BATCH);
    },
  });
  const handlePage = async (items: ReadItem[]): Promise<void> => {
    // Awaited first, then added: `gathered += await …` would add to the count as it was before
    // the await, losing what the pages beside this one added meanwhile.
    const recorded = await processPage(deps, kind, items, summary, options.syncRequestId);
    gathered += recorded;
    await sendWhenDue();
    deps.onProgress?.({ ...summary, durationMs: Date.now() - started });
  };
  // Pages are disjoint and every write is guarded by the sync ledger's claims and the ERP's own
  // idempotency, so several pages are written at once: the round trips of one page (claim, ERP
  // write, outcome) overlap another's instead of adding up.
  // Sync-button runs stay one page at a time: they post after every page and stop between pages
  // once their request is answered.
  const pageConcurrency = options.syncRequestId
    ? 1
    : Math.max(1, options.pageConcurrency ?? SYNC_DEFAULTS.pageConcurrency);
  const inFlight = new Set<Promise<void>>();
  let pageError: unknown = null;
  // A bulk run's reads go first while the read-ahead fills: the first window of the rate limit
  // admits a burst, and every permit of it used early brings the whole run's end forward (each
  // later window repeats the first one's timing). A sync-button run writes its first page at
  // once (its answer is waited for).
  const readAhead = options.readAhead ?? SYNC_DEFAULTS.readAhead;
  // A list the platform stops serving part-way (a page link to nowhere, an error after the
  // retries: docs/platform.md F43) ends the reading, not the run: the pages already read are
  // written and their outcomes reported like any others, then the run fails with the read's error.
  let readError: unknown = null;
  try {
    for await (const page of prefetch(pages, readAhead, { fillFirst: !options.syncRequestId })) {
      // Without its lock the run stops between pages: another process may be running this kind.
      if (pageError || (!joining && lockLost.aborted)) break;
      const task: Promise<void> = handlePage(page.items)
        .catch((error) => {
          pageError ??= error;
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= pageConcurrency) await Promise.race(inFlight);
    }
  } catch (error) {
    readError = error;
  }
  await Promise.all(inFlight);
  if (pageError) throw pageError;
  // A joined share told to stop (a sync-button press, a shutdown) stops reading but still reports
  // what it wrote: the run it joined may have sent its last batch already. A starter that lost its
  // lock stops here (another process may be running the kind).
  if (!joining) lockLost.throwIfAborted();
  await sending;
  if (!readError && !options.syncRequestId && !joining)
    await releaseClosedRequests(deps.sql, deps.connectionId);
  addReport(summary.reported, await freezeAndSend(report, spec.syncTypes, button));
  if (sendError)
    deps.log.warn({ err: sendError }, 'a result batch could not be sent mid-run; it was sent at the end');
  if (readError) throw readError;
  return summary;
}

/**
 * Bulk reads split by date share their plan in PostgreSQL, so worker processes that are idle can
 * join the run (join-runs.ts). Sync-button runs and kinds read with one cursor need none.
 */
async function sharedReading(
  deps: ObjectSyncDeps,
  kind: ObjectKindName,
  options: ObjectSyncOptions,
): Promise<Pick<ReadOptions, 'board' | 'reader' | 'role'>> {
  if (options.syncRequestId || !kindSpec(kind).splitDate || options.joinable === false) return {};
  const reader = readerName();
  if (options.joinRunId)
    return { board: PostgresBoard.join(deps.sql, options.joinRunId), reader, role: 'join' };
  return {
    board: await PostgresBoard.begin(deps.sql, deps.connectionId, kind, reader),
    reader,
    role: 'start',
  };
}

/**
 * Writes one page into the ERP and records each outcome; adds to `summary` and returns how many
 * outcomes this page recorded for reporting (posted or failed). Pages run side by side, so a
 * caller counts what is due to be reported from this return, never from `summary` before and
 * after (that would count the pages that finished meanwhile too).
 */
export async function processPage(
  deps: ObjectSyncDeps,
  kind: ObjectKindName,
  items: ReadItem[],
  summary: ObjectSyncSummary,
  syncRequestId?: string,
): Promise<number> {
  const spec = kindSpec(kind);
  summary.read += items.length;
  // A kind's preparation (vendor creation, docs/platform.md G26) comes first; what it fails is
  // reported failed and not planned.
  const prepared = spec.prepare
    ? await spec.prepare.run(deps, readObjects(items))
    : { failures: [], vendorsCreated: 0 };
  summary.vendorsCreated += prepared.vendorsCreated;
  const plan = planPage(spec, items, prepared.failures);
  summary.unreadable += plan.unreadable.length;
  summary.nothingToSync += plan.nothingToSync;
  if (plan.unreadable.length > 0)
    deps.log.warn(
      { kind, errors: plan.unreadable.slice(0, 3) },
      'objects without a readable id were skipped',
    );
  const counts = await applyPage(
    { sql: deps.sql, erp: deps.erp, connectionId: deps.connectionId, syncRequestId },
    plan.items,
  );
  summary.posted += counts.posted;
  summary.failed += counts.failed;
  summary.skipped += counts.skipped;
  return counts.posted + counts.failed;
}
