import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_LIMITER, type RateLimiterStats } from '../../src/platform/index.ts';
import { type ObjectSyncSummary, SYNC_DEFAULTS } from '../../src/sync/objects/index.ts';
import { type BulkSyncResult, readyTransactions, round, runBulkSync } from '../lib/bulk-sync.ts';
import {
  ceilingObjectsPerSecond,
  minimumRequests,
  rateCeilingMs,
  steadyObjectsPerSecond,
} from '../lib/ceiling.ts';
import type { BenchContext } from '../lib/context.ts';
import { check, type ScenarioResult, verdictOf } from '../lib/result.ts';
import { startWorker, type WorkerRun } from '../lib/worker-run.ts';
import { createWorld, type World } from '../lib/world.ts';
import { describeTime, pipelineBottleneck } from './explain.ts';
import type { Tuning } from './index.ts';
import { rowWanted } from './rows.ts';
import { type ThroughputParams, throughputParams } from './s1-params.ts';

const TITLE = 'Rate-limited throughput';
const TARGET_RATIO = 0.95;
/** Each variant runs this many times (once in a quick run); the median run (by ratio) is reported. */
const RUNS = 3;
const DAY_MS = 86_400_000;

/**
 * The backlogs of scenario 1: where the ready transactions are dated (`days` long, starting
 * `daysAgo` before the run; ending at the run's start unless said).
 */
export const BACKLOGS = {
  recent: { id: '1', label: 'backlog in the last 30 days', days: 30, daysAgo: 30, workers: 1 },
  spread: { id: '1b', label: 'backlog spread over three years', days: 3 * 365, daysAgo: 3 * 365, workers: 1 },
  twoWorkers: { id: '1c', label: 'two worker processes on one kind', days: 30, daysAgo: 30, workers: 2 },
  oldDense: {
    id: '1d',
    label: 'old dense backlog (10 days, two years ago)',
    days: 10,
    daysAgo: 730,
    workers: 1,
  },
} as const;

export function backlogDates(days: number, now = Date.now(), daysAgo = days): { from: string; to: string } {
  const from = now - daysAgo * DAY_MS;
  return { from: new Date(from).toISOString(), to: new Date(from + days * DAY_MS).toISOString() };
}

function backlogLine(days: number, daysAgo: number): string {
  return daysAgo === days
    ? `transactions dated evenly over the ${days} days before the run`
    : `transactions dated evenly over ${days} days starting ${daysAgo} days before the run`;
}

/**
 * Scenario 1: one product sync of 60,000 ready transactions at 200 requests per 10 s with 100 ms
 * a request, with the product's settings, for each of BACKLOGS (1d: 10 days two years ago). Each
 * runs three times and the median run is reported, with every run's ratio in the figures.
 */
export async function rateLimitedThroughput(ctx: BenchContext, tuning: Tuning): Promise<ScenarioResult[]> {
  const p = throughputParams(ctx.quick, tuning);
  const results: ScenarioResult[] = [];
  for (const backlog of Object.values(BACKLOGS)) {
    if (!rowWanted(tuning, backlog.id)) continue;
    const runs: { run: BulkSyncResult; durationMs: number }[] = [];
    for (let i = 0; i < (ctx.quick ? 1 : RUNS); i++)
      runs.push(await measure(ctx, p, `s${backlog.id}-${i + 1}`, backlog));
    const rule = { max: p.rule.rateMax, windowMs: p.rule.rateWindowMs };
    const ratios = runs.map((r) => ratioOf(p.objects, r.run.wallMs, rule));
    const median = runs[medianIndex(ratios)]!;
    results.push(
      judge(
        backlog.id,
        `${TITLE}, ${backlog.label}`,
        p,
        median,
        [
          backlogLine(backlog.days, backlog.daysAgo),
          `ratios of the ${ratios.length} runs: ${ratios.join(', ')} (median reported)`,
          ...(backlog.workers > 1
            ? [
                'a second worker process runs the product joiner (jobs/join-runs.ts) and takes a share of the run; wall time is from the start to the later of the two ends',
              ]
            : []),
        ],
        `${windowLine(p, median.run)}; ${pipelineBottleneck(median.run)}`,
        ratios,
      ),
    );
  }
  return results;
}

/** Index of the median value (the lower one of an even count). */
export function medianIndex(values: readonly number[]): number {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  return order[Math.floor((order.length - 1) / 2)]![1];
}

export function ratioOf(
  objects: number,
  wallMs: number,
  rule: { max: number; windowMs: number },
  fewestRequests?: number,
): number {
  return round(ceilingMsOf(objects, rule, fewestRequests) / Math.max(1, wallMs), 3);
}

/** How many permits their answers moved earlier and later (src/platform/rate-limiter.ts), and by how much. */
function answerDating(run: BulkSyncResult): string {
  const stats = (run.limiter as { limiter?: Partial<RateLimiterStats> } | null)?.limiter;
  if (!stats) return 'not recorded';
  const earlier = stats.answerDated ?? 0;
  const later = stats.answerDatedLater ?? 0;
  const mean = (ms: number | undefined, n: number) => (n > 0 ? round((ms ?? 0) / n) : 0);
  return (
    `of ${stats.permitsGranted ?? '?'}: ${earlier} earlier by ${mean(stats.answerDatedMs, earlier)} ms on average, ` +
    `${later} later by ${mean(stats.answerDatedLaterMs, later)} ms`
  );
}

/** The ceiling: the fewest requests at the rule's average rate. */
function ceilingMsOf(
  objects: number,
  rule: { max: number; windowMs: number },
  fewestRequests?: number,
): number {
  return fewestRequests === undefined
    ? rateCeilingMs(objects, rule)
    : (fewestRequests * rule.windowMs) / rule.max;
}

async function measure(
  ctx: BenchContext,
  p: ThroughputParams,
  name: string,
  { days, daysAgo, workers }: { days: number; daysAgo: number; workers: number },
): Promise<{ run: BulkSyncResult; durationMs: number }> {
  const started = Date.now();
  const world = await createWorld(ctx, name, { rule: p.rule });
  try {
    await world.seed(
      readyTransactions(p.objects, { dates: { transactions: backlogDates(days, Date.now(), daysAgo) } }),
    );
    const joiner =
      workers > 1
        ? startWorker(world.workerConfig({ task: 'join', ...(p.limiter ? { limiter: p.limiter } : {}) }))
        : null;
    await joiner?.ready;
    const run = await runBulkSync(ctx, world, {
      objects: p.objects,
      slices: p.slices,
      readAhead: p.readAhead,
      pageConcurrency: p.pageConcurrency,
      ...(p.limiter ? { limiter: p.limiter } : {}),
      label: name,
    });
    if (joiner) await addJoinerShare(run, joiner, world);
    return { run, durationMs: Date.now() - started };
  } finally {
    await world.close();
  }
}

/**
 * The joiner's share goes into the run: its objects, its end (wall time runs to the later end),
 * and what the platform saw twice (objects marked SYNCED more than once: must be none).
 */
export async function addJoinerShare(
  run: BulkSyncResult,
  joiner: WorkerRun,
  world: World,
  waitMs = 60_000,
): Promise<void> {
  const outcome = await Promise.race([
    joiner.finished,
    sleep(waitMs).then(() => {
      joiner.stop();
      return joiner.finished;
    }),
  ]);
  const share = outcome.done.result as ObjectSyncSummary | null;
  const startedAt = run.outcome.done.startedAt;
  // A joiner stopped at once (waitMs 0) that never joined did no part of the run.
  if (share || waitMs > 0)
    run.wallMs = Math.max(run.outcome.done.finishedAt, outcome.done.finishedAt) - startedAt;
  if (share) {
    run.summary = {
      ...run.summary,
      read: run.summary.read + share.read,
      posted: run.summary.posted + share.posted,
      failed: run.summary.failed + share.failed,
    };
  }
  run.objectsPerSecond = run.summary.read / (run.wallMs / 1000);
  const effects = await world.stub.control<{ summary: { synced_more_than_once: unknown[] } }>(
    'GET',
    '/__stub/effects?include=none&summary=true',
  );
  run.joinedShare = {
    read: (run.joinedShare?.read ?? 0) + (share?.read ?? 0),
    posted: (run.joinedShare?.posted ?? 0) + (share?.posted ?? 0),
    syncedTwice: effects.summary.synced_more_than_once.length,
  };
}

/**
 * How full each window of the rule was, what was left for the last one and how long that took,
 * and how long the run went on after its last read. Every window but the last is full at the
 * limit, so a run's end is the last window's opening (the windows before it, each with the
 * limiter's pad) plus the work of the requests left for it: that work, at the machine's pace, is
 * what a ratio short of the target is made of.
 */
export function windowLine(p: ThroughputParams, run: BulkSyncResult): string {
  const tail = run.tailAfterLastReadMs;
  const last = run.lastWindow;
  const rule = { max: p.rule.rateMax, windowMs: p.rule.rateWindowMs };
  const needed = ceilingMsOf(p.objects, rule, p.fewestRequests) / TARGET_RATIO;
  const s = (ms: number) => round(ms / 1000, 2);
  return (
    `requests admitted per ${p.rule.rateWindowMs / 1000} s window from the first: ${run.arrivalsPerWindow.join(', ')} ` +
    `(the client's limiter allows ${p.rule.rateMax - (p.limiter?.margin ?? DEFAULT_LIMITER.margin)} per window plus the pad, or plus the round trip once answered)` +
    (last && run.arrivalsPerWindow.length > 1
      ? `; the last window's ${last.requests} requests began ${s(last.openedAtMs)} s into the run and it ended ` +
        `${s(last.lastedMs)} s later (a ratio of ${TARGET_RATIO} needed the end by ${s(needed)} s)`
      : '') +
    (tail !== null ? `; the run ended ${round(tail / 1000, 1)} s after the last page read` : '')
  );
}

export function judge(
  id: string,
  title: string,
  p: ThroughputParams,
  measured: { run: BulkSyncResult; durationMs: number },
  extraNotes: string[],
  slowBecause: string,
  ratios: number[] = [],
): ScenarioResult {
  const { run } = measured;
  const rule = { max: p.rule.rateMax, windowMs: p.rule.rateWindowMs };
  const requests = run.arrivals.requests;
  const ceilingMs = ceilingMsOf(p.objects, rule, p.fewestRequests);
  const ratio = ratioOf(p.objects, run.wallMs, rule, p.fewestRequests);
  const rateLimited = run.arrivals.rateLimited;
  const perSecond = round(run.objectsPerSecond);
  const targets = [
    check('ceiling/measured', `>= ${TARGET_RATIO}`, String(ratio), ratio >= TARGET_RATIO),
    check('429s', '= 0', String(rateLimited), rateLimited === 0, { anyScale: true }),
    ...(run.joinedShare
      ? [
          check(
            'objects synced twice',
            '= 0',
            String(run.joinedShare.syncedTwice),
            run.joinedShare.syncedTwice === 0,
            { anyScale: true },
          ),
        ]
      : []),
  ];
  const verdict = verdictOf(targets);
  const limiter = { ...DEFAULT_LIMITER, ...p.limiter };
  const clientRule = { max: limiter.max - limiter.margin, windowMs: limiter.windowMs + limiter.windowPadMs };
  const clientCeiling = rateCeilingMs(p.objects, clientRule);
  const notes = [
    ...extraNotes,
    `the client's limiter admits ${clientRule.max} per ${clientRule.windowMs} ms (margin ${limiter.margin}, pad ${limiter.windowPadMs} ms): ` +
      `at its average rate ${round(clientCeiling / 1000, 2)} s for the fewest requests, a ratio of ${round(ceilingMs / clientCeiling, 3)}; ` +
      `the sliding window's first burst, and permits dated by their answers (${answerDating(run)}), move that`,
    ...describeTime(run),
  ];
  const slowest = ratio < TARGET_RATIO;
  return {
    id,
    title,
    verdict,
    figures:
      `${run.summary.read} objects in ${round(run.wallMs / 1000, 1)} s = ${perSecond}/s; ${requests} requests, ` +
      `${rateLimited} 429s; ceiling ${round(ceilingMs / 1000, 1)} s` +
      (ratios.length > 1 ? `; ratios ${ratios.join(', ')}` : ''),
    targets,
    metrics: {
      objects: run.summary.read,
      posted: run.summary.posted,
      failed: run.summary.failed,
      reported: run.summary.reported.items,
      wallSeconds: round(run.wallMs / 1000, 2),
      objectsPerSecond: perSecond,
      requests,
      minimumRequests: p.fewestRequests ?? minimumRequests(p.objects),
      rateLimited,
      ceilingSeconds: round(ceilingMs / 1000, 2),
      ...(run.joinedShare ? { joinedShare: run.joinedShare } : {}),
      ratio,
      ratios,
      ceilingObjectsPerSecond: round(ceilingObjectsPerSecond(p.objects, rule, p.rule.latencyMs)),
      steadyCeilingObjectsPerSecond: round(steadyObjectsPerSecond(rule)),
      maxAdmittedInWindow: run.arrivals.maxInWindow,
      admittedPerWindow: run.arrivalsPerWindow,
      tailAfterLastReadMs: run.tailAfterLastReadMs,
      lastWindow: run.lastWindow,
      tableStats: run.tableStats,
      requestsByRoute: run.arrivals.byRoute,
      limiter: run.limiter,
      workerCpuSeconds: round(run.cpuSeconds, 2),
      stubCpuSeconds: run.stubCpuSeconds,
      postgresCpuSeconds: run.postgresCpuSeconds,
      peakRssMB: run.peakRssMB,
      time: run.meter,
      cpuProfile: run.profile,
    },
    settings: {
      objects: p.objects,
      scale: p.scale,
      rateLimit: `${p.rule.rateMax} per ${p.rule.rateWindowMs} ms`,
      latencyMs: p.rule.latencyMs,
      clientLimiter:
        p.limiter ??
        `product defaults (max ${DEFAULT_LIMITER.max}, window ${DEFAULT_LIMITER.windowMs / 1000} s, margin ${DEFAULT_LIMITER.margin}, pad ${DEFAULT_LIMITER.windowPadMs} ms)`,
      slices: p.slices ?? `product default ${SYNC_DEFAULTS.slices}`,
      readAhead: p.readAhead ?? `product default ${SYNC_DEFAULTS.readAhead}`,
      pageConcurrency: p.pageConcurrency ?? `product default ${SYNC_DEFAULTS.pageConcurrency}`,
      ceiling:
        "the fewest requests (one page per 100 objects, one post per 5,000) at the rule's average rate",
      vendorCreation: 'off (each transaction needing a vendor would cost a coding call of its own)',
    },
    notes,
    ...(slowest || rateLimited > 0 ? { bottleneck: bottleneckOf(run, ratio, rateLimited, slowBecause) } : {}),
    durationMs: measured.durationMs,
  };
}

function bottleneckOf(run: BulkSyncResult, ratio: number, rateLimited: number, slowBecause: string): string {
  const parts: string[] = [];
  if (rateLimited > 0)
    parts.push(`${rateLimited} requests answered 429: the client's limiter let more through than the rule`);
  if (ratio < TARGET_RATIO) {
    const wait = (run.limiter as { limiter?: { totalWaitMs?: number } }).limiter?.totalWaitMs ?? 0;
    parts.push(`ratio ${ratio} (limiter wait ${round(wait / 1000, 1)} s): ${slowBecause}`);
  }
  return parts.join('; ');
}
