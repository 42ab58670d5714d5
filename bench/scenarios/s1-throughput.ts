import { DEFAULT_LIMITER } from '../../src/platform/rate-limiter.ts';
import { timeOf } from '../../src/stub/world/world.ts';
import { type BulkSyncResult, readyTransactions, round, runBulkSync } from '../lib/bulk-sync.ts';
import {
  ceilingObjectsPerSecond,
  ceilingRatio,
  fastestTimeMs,
  minimumRequests,
  steadyObjectsPerSecond,
} from '../lib/ceiling.ts';
import type { BenchContext } from '../lib/context.ts';
import { check, type ScenarioResult, verdictOf } from '../lib/result.ts';
import { objectsPerProductSlice } from '../lib/slice-balance.ts';
import { createWorld } from '../lib/world.ts';
import { describeTime, pipelineBottleneck } from './explain.ts';
import type { Tuning } from './index.ts';
import { type ThroughputParams, throughputParams } from './s1-params.ts';

const TITLE = 'Rate-limited throughput';
const TARGET_RATIO = 0.95;

/** The date span the seeded transactions cover (the stub generates them 30 s apart from 2024-01-01). */
export function seededSpan(objects: number): { from: string; to: string } {
  return {
    from: new Date(timeOf('transaction', 0)).toISOString(),
    to: new Date(timeOf('transaction', objects - 1) + 1000).toISOString(),
  };
}

/**
 * Scenario 1, twice: with the product's date slices (1), and with slices cut over the span the
 * data covers (1b, bench/lib/range-slices.ts), which shows what the pipeline does once its
 * slices share the work.
 */
export async function rateLimitedThroughput(ctx: BenchContext, tuning: Tuning): Promise<ScenarioResult[]> {
  const p = throughputParams(ctx.quick, tuning);
  const product = await measure(ctx, p, 's1', false);
  const balanced = await measure(ctx, p, 's1b', true);
  const span = seededSpan(p.objects);
  return [
    judge('1', `${TITLE} (product slices)`, p, product, productNotes(p), cursorBottleneck(p, product.run)),
    judge(
      '1b',
      `${TITLE} (slices over the data's dates)`,
      p,
      balanced,
      [
        `slices cut over the seeded span ${span.from} .. ${span.to} by a bench-side port (bench/lib/range-slices.ts); everything else is the product's`,
      ],
      `${windowLine(p, balanced.run)}; ${pipelineBottleneck(balanced.run)}`,
    ),
  ];
}

async function measure(
  ctx: BenchContext,
  p: ThroughputParams,
  name: string,
  balanced: boolean,
): Promise<{ run: BulkSyncResult; durationMs: number }> {
  const started = Date.now();
  const world = await createWorld(ctx, name, { rule: p.rule });
  try {
    await world.seed(readyTransactions(p.objects));
    const run = await runBulkSync(ctx, world, {
      objects: p.objects,
      slices: p.slices,
      readAhead: p.readAhead,
      pageConcurrency: p.pageConcurrency,
      ...(p.limiter ? { limiter: p.limiter } : {}),
      ...(balanced ? { sliceRange: seededSpan(p.objects) } : {}),
      profile: true,
      label: name,
    });
    return { run, durationMs: Date.now() - started };
  } finally {
    await world.close();
  }
}

/** How full each window of the rule was, and how long the run went on after its last read. */
function windowLine(p: ThroughputParams, run: BulkSyncResult): string {
  const tail = run.tailAfterLastReadMs;
  return (
    `requests admitted per ${p.rule.rateWindowMs / 1000} s window from the first: ${run.arrivalsPerWindow.join(', ')} ` +
    `(the client's limiter allows ${p.rule.rateMax - (p.limiter?.margin ?? 4)} per window plus pad)` +
    (tail !== null ? `; the run ended ${round(tail / 1000, 1)} s after the last page read` : '')
  );
}

/** Why the product's slices read no faster than one cursor. */
function cursorBottleneck(p: ThroughputParams, run: BulkSyncResult): string {
  const perSlice = objectsPerProductSlice(p.objects, (i) => timeOf('transaction', i), p.slices);
  const busy = perSlice.filter((n) => n > 0).length;
  const pages = run.meter['platform.page']?.count ?? 0;
  const seconds = run.wallMs / 1000;
  return (
    `${busy} of ${p.slices} product date slices hold objects (${perSlice.join(', ')}): openDateRanges cuts the year before now, ` +
    `so objects older than a year (the stub's are from 2024-01) or all recent ones land in one slice and are read by one ` +
    `cursor, one page after another: ${pages} pages in ${round(seconds, 1)} s = ${round(pages / seconds, 1)} pages/s ` +
    `(${round((seconds * 1000) / Math.max(1, pages))} ms a page with ${p.rule.latencyMs} ms added latency) where the rule allows ` +
    `${p.rule.rateMax / (p.rule.rateWindowMs / 1000)}`
  );
}

function productNotes(p: ThroughputParams): string[] {
  const perSlice = objectsPerProductSlice(p.objects, (i) => timeOf('transaction', i), p.slices);
  return [
    `objects per product slice (openDateRanges(${p.slices}) cuts the year before now; the stub's transactions are dated from 2024-01-01, 30 s apart): ${perSlice.join(', ')}`,
  ];
}

export function judge(
  id: string,
  title: string,
  p: ThroughputParams,
  measured: { run: BulkSyncResult; durationMs: number },
  extraNotes: string[],
  slowBecause: string,
): ScenarioResult {
  const { run } = measured;
  const rule = { max: p.rule.rateMax, windowMs: p.rule.rateWindowMs };
  const requests = run.arrivals.requests;
  const ratio = round(ceilingRatio(requests, run.wallMs, rule, p.rule.latencyMs), 3);
  const rateLimited = run.arrivals.rateLimited;
  const perSecond = round(run.objectsPerSecond);
  const targets = [
    check('fastest/measured', `>= ${TARGET_RATIO}`, String(ratio), ratio >= TARGET_RATIO),
    check('429s', '= 0', String(rateLimited), rateLimited === 0),
  ];
  const verdict = verdictOf(targets);
  const limiter = { ...DEFAULT_LIMITER, ...p.limiter };
  const clientRule = { max: limiter.max - limiter.margin, windowMs: limiter.windowMs + limiter.windowPadMs };
  const clientFastest = fastestTimeMs(requests, clientRule, p.rule.latencyMs);
  const notes = [
    ...extraNotes,
    `the client's limiter admits ${clientRule.max} per ${clientRule.windowMs} ms (margin ${limiter.margin}, pad ${limiter.windowPadMs} ms): ` +
      `at best ${round(clientFastest / 1000, 2)} s for these requests, a ratio of ${round(fastestTimeMs(requests, rule, p.rule.latencyMs) / clientFastest, 3)}`,
    ...describeTime(run),
  ];
  const slowest = ratio < TARGET_RATIO;
  return {
    id,
    title,
    verdict,
    figures:
      `${run.summary.read} objects in ${round(run.wallMs / 1000, 1)} s = ${perSecond}/s; ${requests} requests, ` +
      `${rateLimited} 429s; fastest ${round(fastestTimeMs(requests, rule, p.rule.latencyMs) / 1000, 1)} s; ` +
      `slices ${p.slices}, read-ahead ${p.readAhead}`,
    targets,
    metrics: {
      objects: run.summary.read,
      posted: run.summary.posted,
      failed: run.summary.failed,
      reported: run.summary.reported.items,
      wallSeconds: round(run.wallMs / 1000, 2),
      objectsPerSecond: perSecond,
      requests,
      minimumRequests: minimumRequests(p.objects),
      rateLimited,
      fastestSeconds: round(fastestTimeMs(requests, rule, p.rule.latencyMs) / 1000, 2),
      ratio,
      ceilingObjectsPerSecond: round(ceilingObjectsPerSecond(p.objects, rule, p.rule.latencyMs)),
      steadyCeilingObjectsPerSecond: round(steadyObjectsPerSecond(rule)),
      maxAdmittedInWindow: run.arrivals.maxInWindow,
      admittedPerWindow: run.arrivalsPerWindow,
      tailAfterLastReadMs: run.tailAfterLastReadMs,
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
      clientLimiter: p.limiter ?? 'product defaults (max 200, window 10 s, margin 4, pad 250 ms)',
      slices: p.slices,
      readAhead: p.readAhead,
      pageConcurrency: p.pageConcurrency ?? "the pipeline's default",
      tuning:
        'the object-sync job uses slices 4, read-ahead 2 (jobs/object-sync.ts); chosen here: 8 slices, one page of ~110 ms in flight each (about 70 pages/s of reading, 3.5x what the rule admits, so reads never wait on each other), and 4 pages read ahead so that a page is always parsed and waiting when the ERP write of the previous one ends; neither matters once the pipeline is the bottleneck',
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
