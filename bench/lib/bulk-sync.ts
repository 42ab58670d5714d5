import type { RateLimiterOptions } from '../../src/platform/index.ts';
import type { ObjectSyncSummary } from '../../src/sync/objects/index.ts';
import {
  type Arrival,
  type ArrivalStats,
  arrivalStats,
  arrivalsSince,
  lastWindow,
  perWindow,
} from './arrivals.ts';
import type { BenchContext } from './context.ts';
import { type CpuSummary, summarizeProfileDir } from './cpu-profile.ts';
import { readCpuSeconds, treeCpuSeconds } from './process-cpu.ts';
import type { MemoryParts } from './worker-config.ts';
import {
  type ProgressLine,
  ratePerTenth,
  rssAtProgress,
  rssNear,
  startWorker,
  type WorkerOutcome,
  type WorkerRun,
} from './worker-run.ts';
import type { World } from './world.ts';

export interface BulkSyncOptions {
  /** Objects expected (progress milestones are fractions of it). */
  objects: number;
  /** Unset: the product's defaults. */
  slices?: number | undefined;
  readAhead?: number | undefined;
  /** Pages written at once; unset: the pipeline's default. */
  pageConcurrency?: number | undefined;
  limiter?: Partial<RateLimiterOptions>;
  /** Write a CPU profile of the worker child. */
  profile?: boolean;
  /** Label of the profile folder. */
  label: string;
  /** Redis key prefix of the worker's platform client (default: the world's): shares a budget. */
  redisPrefix?: string;
  /** 'all': every kind side by side as `sync all` runs them (task-all.ts); default transactions alone. */
  task?: 'sync' | 'all';
  /** Called once the worker child runs (scenario 3 presses the sync button meanwhile). */
  whileRunning?: (run: WorkerRun) => Promise<void>;
}

export interface BulkSyncResult {
  summary: ObjectSyncSummary;
  wallMs: number;
  objectsPerSecond: number;
  arrivals: ArrivalStats;
  /** Admitted requests per window of the rule, from the first arrival. */
  arrivalsPerWindow: number[];
  /** From the last page read's arrival at the stub to the end of the run. */
  tailAfterLastReadMs: number | null;
  /**
   * The rule's last window from the first arrival: its requests, when the first of them arrived
   * (ms after the run's start) and how long the run went on from there.
   */
  lastWindow: { requests: number; openedAtMs: number; lastedMs: number } | null;
  /** PostgreSQL's counters of the worker's tables after the run (autoanalyze, dead rows). */
  tableStats: Record<string, unknown>[];
  cpuSeconds: number;
  stubCpuSeconds: number | null;
  /** CPU of the embedded PostgreSQL (all backends) during the run; null for an external server. */
  postgresCpuSeconds: number | null;
  peakRssMB: number;
  rssAtProgressMB: { '10%': number | null; '50%': number | null; '90%': number | null };
  /** RSS when the worker was ready: modules loaded, nothing synced yet. */
  rssAtReadyMB: number | null;
  /** The worker's own view of its memory at the progress line nearest the RSS peak. */
  memoryAtPeak: { rssMB: number; parts: MemoryParts | null } | null;
  /** Objects/s in each tenth of the run. */
  ratePerTenth: number[];
  limiter: unknown;
  /** Where the worker's time went: timed ERP calls, platform calls and SQL statements. */
  meter: Record<string, { count: number; totalMs: number; maxMs: number }>;
  profile: (CpuSummary & { file: string }) | null;
  outcome: WorkerOutcome;
  /** With a second worker process (scale-out): its share, and objects the platform synced twice. */
  joinedShare?: { read: number; posted: number; syncedTwice: number };
}

/** Runs one object sync of transactions (or of every kind) in a worker child and gathers every figure about it. */
export async function runBulkSync(
  ctx: BenchContext,
  world: World,
  options: BulkSyncOptions,
): Promise<BulkSyncResult> {
  await world.resetRateWindow();
  const since = await world.arrivalCount();
  const stubCpuBefore = readCpuSeconds(world.stub.child.pid);
  const pgCpuBefore = ctx.postgresPid ? treeCpuSeconds(ctx.postgresPid) : null;
  const profileDir = options.profile || ctx.profileAll ? `${ctx.profileDir}/${options.label}` : undefined;
  const run = startWorker(
    world.workerConfig({
      task: options.task ?? 'sync',
      sync: {
        kind: 'transactions',
        slices: options.slices,
        readAhead: options.readAhead,
        ...(options.pageConcurrency ? { pageConcurrency: options.pageConcurrency } : {}),
      },
      ...(options.limiter ? { limiter: options.limiter } : {}),
      ...(options.redisPrefix ? { redisPrefix: options.redisPrefix } : {}),
    }),
    profileDir ? { cpuProfileDir: profileDir } : {},
  );
  const side = options.whileRunning ? run.ready.then(() => options.whileRunning!(run)) : Promise.resolve();
  const [outcome] = await Promise.all([run.finished, side]);
  const stubCpuAfter = readCpuSeconds(world.stub.child.pid);
  const pgCpuAfter = ctx.postgresPid ? treeCpuSeconds(ctx.postgresPid) : null;
  const { done } = outcome;
  const summary = done.result as ObjectSyncSummary;
  const wallMs = done.finishedAt - done.startedAt;
  const windowMs = world.rule.rateMax > 0 ? world.rule.rateWindowMs : 10_000;
  const rows = await arrivalsSince(world.stub, since);
  const arrivals = arrivalStats(rows, windowMs);
  const lastRead = rows.filter((a) => a.method === 'GET').reduce((m, a) => Math.max(m, a.at), 0);
  const at = (f: number) => rssAtProgress(outcome.rss, run.progress, options.objects, f);
  return {
    summary,
    wallMs,
    objectsPerSecond: summary.read / (wallMs / 1000),
    arrivals,
    arrivalsPerWindow: perWindow(rows, windowMs),
    tailAfterLastReadMs: lastRead > 0 ? done.finishedAt - lastRead : null,
    lastWindow: lastWindowOf(rows, windowMs, done),
    tableStats: await tableStats(ctx, world.schema),
    cpuSeconds: (done.cpu.userMs + done.cpu.systemMs) / 1000,
    stubCpuSeconds:
      stubCpuBefore !== null && stubCpuAfter !== null ? round(stubCpuAfter - stubCpuBefore, 2) : null,
    postgresCpuSeconds:
      pgCpuBefore !== null && pgCpuAfter !== null ? round(pgCpuAfter - pgCpuBefore, 2) : null,
    peakRssMB: Math.round(outcome.peakRssMB),
    rssAtProgressMB: { '10%': at(0.1), '50%': at(0.5), '90%': at(0.9) },
    ratePerTenth: ratePerTenth(run.progress, options.objects, done.startedAt),
    rssAtReadyMB: run.readyAt() === null ? null : rssNear(outcome.rss, run.readyAt()!),
    memoryAtPeak: memoryAtPeak(outcome, run.progress),
    limiter: done.limiter,
    meter: done.meter as BulkSyncResult['meter'],
    profile: profileDir ? summarizeProfileDir(profileDir) : null,
    outcome,
  };
}

function lastWindowOf(
  rows: readonly Arrival[],
  windowMs: number,
  done: { startedAt: number; finishedAt: number },
): BulkSyncResult['lastWindow'] {
  const last = lastWindow(rows, windowMs);
  if (!last) return null;
  return {
    requests: last.requests,
    openedAtMs: last.firstAt - done.startedAt,
    lastedMs: done.finishedAt - last.firstAt,
  };
}

export function round(value: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Seed body for `count` ready transactions and nothing else (vendor creation off, see notes). */
export function readyTransactions(
  count: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    seed: 7,
    transactions: count,
    reimbursements: 0,
    transfers: 0,
    cashbacks: 0,
    bills: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    vendor_creation_fraction: 0,
    ...extra,
  };
}

/** pg_stat_user_tables for the worker's sync_ledger and result_batches. */
async function tableStats(ctx: BenchContext, schema: string): Promise<Record<string, unknown>[]> {
  return ctx.admin.unsafe(
    `select relname, n_live_tup, n_dead_tup, autoanalyze_count, autovacuum_count, seq_scan, idx_scan
       from pg_stat_user_tables where schemaname = $1 and relname in ('sync_ledger', 'result_batches')`,
    [schema],
  ) as unknown as Promise<Record<string, unknown>[]>;
}

/** The peak RSS sample and the worker's memory parts from the progress line nearest it. */
function memoryAtPeak(
  outcome: WorkerOutcome,
  progress: readonly ProgressLine[],
): { rssMB: number; parts: MemoryParts | null } | null {
  const peak = outcome.rss.reduce<WorkerOutcome['rss'][number] | null>(
    (best, s) => (!best || s.rssMB > best.rssMB ? s : best),
    null,
  );
  if (!peak) return null;
  let nearest: ProgressLine | undefined;
  for (const p of progress)
    if (!nearest || Math.abs(p.t - peak.at) < Math.abs(nearest.t - peak.at)) nearest = p;
  return { rssMB: Math.round(peak.rssMB), parts: nearest?.mem ?? null };
}
