import type { MirrorSummary } from '../../src/sync/mirror/index.ts';
import { type Arrival, arrivalStats, arrivalsSince } from '../lib/arrivals.ts';
import { round } from '../lib/bulk-sync.ts';
import { fastestTimeMs } from '../lib/ceiling.ts';
import type { BenchContext } from '../lib/context.ts';
import { type ChartSize, minimumChartCalls, writeLargeChart } from '../lib/large-chart.ts';
import { check, notRun, type ScenarioResult, verdictOf } from '../lib/result.ts';
import { startWorker, type WorkerOutcome } from '../lib/worker-run.ts';
import { createWorld, type World } from '../lib/world.ts';

const TITLE = 'Chart of accounts';

interface MirrorRun {
  outcome: WorkerOutcome;
  summary: MirrorSummary;
  wallMs: number;
  arrivals: Arrival[];
}

const isWrite = (a: Arrival) => a.method !== 'GET' && a.route !== '/token';

/** Initial mirror of a large chart, then an unchanged re-run that must write nothing. */
export async function chartOfAccounts(ctx: BenchContext): Promise<ScenarioResult> {
  const started = Date.now();
  let mirrorModule: unknown;
  try {
    mirrorModule = await import('../../src/sync/mirror/index.ts');
  } catch (error) {
    return notRun('4', TITLE, `the mirror cannot be loaded: ${(error as Error).message}`, [
      're-run writes = 0',
    ]);
  }
  if (typeof (mirrorModule as { mirrorChart?: unknown }).mirrorChart !== 'function')
    return notRun('4', TITLE, 'src/sync/mirror has no mirrorChart', ['re-run writes = 0']);

  const size: ChartSize = ctx.quick
    ? { accounts: 2_000, vendors: 500, options: 1_000 }
    : { accounts: 20_000, vendors: 5_000, options: 10_000 };
  const rule = { rateMax: 200, rateWindowMs: 10_000, latencyMs: 100 };
  const world = await createWorld(ctx, 's4', { rule, ledger: false });
  try {
    await writeLargeChart(ctx.admin, world.ledgerSchema, size);
    const initial = await mirrorOnce(ctx, world, 's4-initial');
    const rerun = await mirrorOnce(ctx, world, 's4-rerun');
    return judge(size, rule, initial, rerun, Date.now() - started);
  } finally {
    await world.close();
  }
}

async function mirrorOnce(ctx: BenchContext, world: World, label: string): Promise<MirrorRun> {
  await world.resetRateWindow();
  const since = await world.arrivalCount();
  const run = startWorker(
    world.workerConfig({ task: 'mirror' }),
    ctx.profileAll ? { cpuProfileDir: `${ctx.profileDir}/${label}` } : {},
  );
  const outcome = await run.finished;
  return {
    outcome,
    summary: outcome.done.result as MirrorSummary,
    wallMs: outcome.done.finishedAt - outcome.done.startedAt,
    arrivals: await arrivalsSince(world.stub, since),
  };
}

function judge(
  size: ChartSize,
  rule: { rateMax: number; rateWindowMs: number; latencyMs: number },
  initial: MirrorRun,
  rerun: MirrorRun,
  durationMs: number,
): ScenarioResult {
  const limit = { max: rule.rateMax, windowMs: rule.rateWindowMs };
  const describe = (run: MirrorRun) => {
    const stats = arrivalStats(run.arrivals, rule.rateWindowMs);
    const writes = run.arrivals.filter(isWrite).length;
    return {
      calls: stats.requests,
      writes,
      reads: stats.requests - writes,
      rateLimited: stats.rateLimited,
      byRoute: stats.byRoute,
      wallSeconds: round(run.wallMs / 1000, 2),
      fastestSeconds: round(fastestTimeMs(stats.requests, limit, rule.latencyMs) / 1000, 2),
      sequentialSeconds: round((stats.requests * rule.latencyMs) / 1000, 2),
      summaryWriteCalls: run.summary.writeCalls,
      summaryReadCalls: run.summary.readCalls,
      failed: Object.values(run.summary.kinds).reduce((n, k) => n + k.failed.length, 0),
      created: Object.fromEntries(Object.entries(run.summary.kinds).map(([k, s]) => [k, s.created])),
      peakRssMB: Math.round(run.outcome.peakRssMB),
      cpuSeconds: round((run.outcome.done.cpu.userMs + run.outcome.done.cpu.systemMs) / 1000, 2),
      time: run.outcome.done.meter,
    };
  };
  const first = describe(initial);
  const second = describe(rerun);
  const minimum = minimumChartCalls(size);
  const targets = [
    check('re-run writes', '= 0', String(second.writes), second.writes === 0, { anyScale: true }),
  ];
  const verdict = verdictOf(targets);
  return {
    id: '4',
    title: TITLE,
    verdict,
    figures:
      `initial: ${first.calls} calls (${first.writes} writes; fewest possible ${minimum} + token) in ${first.wallSeconds} s ` +
      `(rate ceiling ${first.fastestSeconds} s, one call at a time ${first.sequentialSeconds} s); ` +
      `re-run: ${second.calls} calls, ${second.writes} writes in ${second.wallSeconds} s`,
    targets,
    metrics: { initial: first, rerun: second, minimumWriteCalls: minimum },
    settings: {
      chart: size,
      fields: 2,
      rateLimit: `${rule.rateMax} per ${rule.rateWindowMs} ms`,
      latencyMs: rule.latencyMs,
      scale: size.accounts === 20_000 ? 'full' : 'quick: a tenth of the full chart',
    },
    notes: [
      'rate ceiling: the fastest time the rule allows for the calls made; one call at a time: calls x added latency, the floor for a mirror that sends its calls one after another',
    ],
    ...(verdict === 'missed'
      ? { bottleneck: `the unchanged re-run sent ${second.writes} writes: ${JSON.stringify(second.byRoute)}` }
      : {}),
    durationMs,
  };
}
