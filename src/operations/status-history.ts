import type { Sql } from 'postgres';
import { OBJECT_KINDS } from '../sync/objects/index.ts';
import { backlogBySteps } from '../sync/reporting/index.ts';
import { recentAnsweredRequests } from '../sync/sync-button/index.ts';

/** What the status page draws: recent runs, sync-button answers and the outbox over a day. */
export interface StatusHistory {
  /** The latest object runs (sync-button runs included), oldest first; busy runs left out. */
  runs: {
    kind: string;
    trigger: string;
    startedAt: string;
    /** running, succeeded or failed (the run itself stopped with an error). */
    status: string;
    posted: number;
    failed: number;
  }[];
  /** The latest answered sync-button requests, oldest first: when pressed, how long to answer. */
  buttonLatency: { at: string; ms: number }[];
  /**
   * Results waiting for the platform (in frozen batches not yet acknowledged) over the last 24
   * hours, in 30-minute steps: the most waiting at any moment of each step, oldest first.
   */
  outboxDepth: { at: string; items: number }[];
  /**
   * Results waiting right now. The last step's peak may be up to 30 minutes old: the chart shows
   * this beside it, so a drained peak is not read as the present.
   */
  outboxNow: number;
}

const HISTORY_RUNS = 40;
const HISTORY_PRESSES = 100;
const DAY_MS = 24 * 3_600_000;
/** The outbox chart's step: each of its points is the peak of this long. */
export const OUTBOX_STEP_MS = 30 * 60_000;

async function recentRuns(sql: Sql, connectionId: string): Promise<StatusHistory['runs']> {
  // Object syncs keep their counts at the top; a sync-button run keeps them under `summary`.
  const rows = await sql<
    { kind: string; trigger: string; startedAt: Date; status: string; posted: number; failed: number }[]
  >`
    select kind, trigger, started_at as "startedAt", status,
      coalesce((counts->>'posted')::int, (counts->'summary'->>'posted')::int, 0) as posted,
      coalesce((counts->>'failed')::int, (counts->'summary'->>'failed')::int, 0) as failed
    from runs
    where connection_id = ${connectionId} and kind in ${sql([...OBJECT_KINDS])}
      and coalesce(counts->>'busy', 'false') <> 'true'
    order by started_at desc limit ${HISTORY_RUNS}`;
  return rows.reverse().map((r) => ({
    kind: r.kind,
    trigger: r.trigger,
    startedAt: new Date(r.startedAt).toISOString(),
    status: r.status,
    posted: r.posted,
    failed: r.failed,
  }));
}

async function recentPresses(sql: Sql, connectionId: string): Promise<StatusHistory['buttonLatency']> {
  const rows = await recentAnsweredRequests(sql, connectionId, HISTORY_PRESSES);
  return rows.reverse().map((r) => ({ at: new Date(r.at).toISOString(), ms: Math.round(Number(r.ms)) }));
}

/**
 * The frozen-batch backlog over the last day, from the batches' own times (frozen at
 * created_at, gone at acked_at): each batch adds its items when frozen and takes them away when
 * acknowledged; per step, the peak of that running sum (with what the step started with).
 */
async function outboxOverDay(
  sql: Sql,
  connectionId: string,
  now: number,
): Promise<Pick<StatusHistory, 'outboxDepth' | 'outboxNow'>> {
  const from = new Date(now - DAY_MS);
  const to = new Date(now);
  const steps = Math.round(DAY_MS / OUTBOX_STEP_MS);
  const rows = await backlogBySteps(sql, connectionId, { from, to, stepMs: OUTBOX_STEP_MS, steps });
  const byStep = new Map(rows.map((r) => [r.step, r]));
  const out: StatusHistory['outboxDepth'] = [];
  let carried = 0;
  for (let step = 0; step < steps; step++) {
    const row = byStep.get(step);
    const items = row ? Math.max(carried, row.peak) : carried;
    out.push({ at: new Date(from.getTime() + (step + 1) * OUTBOX_STEP_MS).toISOString(), items });
    if (row) carried = row.last;
  }
  return { outboxDepth: out, outboxNow: carried };
}

/** The series behind the status page's charts, read from the worker's own tables. */
export async function readStatusHistory(
  sql: Sql,
  connectionId: string,
  now = Date.now(),
): Promise<StatusHistory> {
  return {
    runs: await recentRuns(sql, connectionId),
    buttonLatency: await recentPresses(sql, connectionId),
    ...(await outboxOverDay(sql, connectionId, now)),
  };
}
