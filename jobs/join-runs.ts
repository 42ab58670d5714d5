import type { AppContext } from '../src/app/index.ts';
import {
  OBJECT_KINDS,
  type ObjectKindName,
  type ObjectSyncSummary,
  PostgresBoard,
  SYNC_DEFAULTS,
  syncObjects,
} from '../src/sync/objects/index.ts';

export interface RunningJoiner {
  /**
   * Until the returned release is called, this process joins no run, and the shares it is reading
   * stop between pages (their ranges go back to the others). A sync-button press holds the joiner:
   * on 2 cores a joined share's CPU was most of a press's latency (benchmark scenario 3: p99 2.5 s
   * from webhook to last result with the joiner reading, 1.5 s without).
   */
  hold(): () => void;
  stop(): Promise<void>;
}

/** How often an idle worker process looks for a run to join. */
export const JOIN_POLL_MS = 2_000;

/**
 * Cursors of a joined share: half the starter's, handed over by the starter (split-reader.ts),
 * which then reads with the other half. More would only cut the ranges smaller near the end, each
 * ending on a partial page (a request more). Benchmark scenario 1c (two processes, 60,000
 * objects): 661 requests with 12 cursors in a joiner that cut its ranges, against 612 at the least.
 */
export const JOIN_SLICES = Math.max(1, Math.floor(SYNC_DEFAULTS.slices / 2));

/**
 * Scale-out on one kind: a worker process looks every two seconds for a bulk sync another process
 * started (read_runs in PostgreSQL) and still has ranges to read, and joins it: it claims ranges,
 * or has the ranges with most left handed over to it, and writes and reports what it reads. The kind lock stays with
 * the starter; every write stays single through the sync ledger's claims and the ERP's own
 * idempotency, so a joiner that dies loses nothing (its ranges go back to the others).
 */
export function startJoining(
  app: Pick<AppContext, 'sql' | 'erp' | 'syncPlatform' | 'log'>,
  options: { everyMs?: number; onJoined?: (summary: ObjectSyncSummary) => void } = {},
): RunningJoiner {
  const running = new Map<string, { task: Promise<void>; abort: AbortController }>();
  const stopping = new AbortController();
  let stopped = false;
  let holds = 0;
  const join = (runId: string, connectionId: string, kind: ObjectKindName) => {
    const log = app.log.child({ kind, joinedRun: runId });
    const abort = new AbortController();
    const task = syncObjects(
      { sql: app.sql, erp: app.erp, platform: app.syncPlatform, connectionId, log },
      kind,
      {
        joinRunId: runId,
        slices: JOIN_SLICES,
        signal: AbortSignal.any([stopping.signal, abort.signal]),
      },
    )
      .then((summary) => {
        log.info(
          {
            read: summary.read,
            posted: summary.posted,
            failed: summary.failed,
            durationMs: summary.durationMs,
          },
          'joined sync finished',
        );
        options.onJoined?.(summary);
      })
      .catch((error) => log.warn({ err: error }, 'joined sync stopped'))
      .finally(() => running.delete(runId));
    running.set(runId, { task, abort });
  };
  const tick = async () => {
    if (stopped || holds > 0) return;
    try {
      for (const run of await PostgresBoard.joinable(app.sql)) {
        const kind = OBJECT_KINDS.find((k) => k === run.kind);
        if (kind && !running.has(run.runId) && holds === 0) join(run.runId, run.connectionId, kind);
      }
    } catch (error) {
      app.log.debug({ err: error }, 'looking for a run to join failed');
    }
  };
  const timer = setInterval(() => void tick(), options.everyMs ?? JOIN_POLL_MS);
  timer.unref();
  return {
    hold() {
      holds++;
      for (const share of running.values()) share.abort.abort();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds--;
      };
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A joined share stops reading, gives its unfinished ranges back, and reports what it wrote.
      stopping.abort();
      await Promise.allSettled([...running.values()].map((share) => share.task));
    },
  };
}
