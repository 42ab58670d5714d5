import { type BulkSyncResult, readyTransactions, round, runBulkSync } from '../lib/bulk-sync.ts';
import type { BenchContext } from '../lib/context.ts';
import { check, type ScenarioResult, verdictOf } from '../lib/result.ts';
import { createWorld } from '../lib/world.ts';
import { describeTime, pipelineBottleneck } from './explain.ts';
import type { Tuning } from './index.ts';
import { UNLIMITED } from './s2-raw-pipeline.ts';

const TITLE = 'Memory at scale';
const TARGET_PEAK_MB = 250;
/** "Flat": RSS at 90% of the run at most this much above RSS at 10%. */
const FLAT_GROWTH = 0.1;
const FULL_SIZE = 1_000_000;
/** The full run's default: the whole million (--memory-objects N for fewer). */
const DEFAULT_FULL_OBJECTS = 1_000_000;

/** A million ready transactions, rate limit off: the worker child's RSS, sampled every 200 ms. */
export async function memoryAtScale(ctx: BenchContext, tuning: Tuning): Promise<ScenarioResult> {
  const started = Date.now();
  const objects = ctx.quick ? 40_000 : (tuning.memoryObjects ?? DEFAULT_FULL_OBJECTS);
  const slices = 4;
  const readAhead = 4;
  const world = await createWorld(ctx, 's5', { rule: { rateMax: 0, rateWindowMs: 10_000, latencyMs: 0 } });
  try {
    await world.seed(readyTransactions(objects));
    const run = await runBulkSync(ctx, world, {
      objects,
      slices,
      readAhead,
      pageConcurrency: tuning.pageConcurrency,
      limiter: UNLIMITED,
      label: 's5',
    });
    const at = run.rssAtProgressMB;
    // Quick: 10% is a few thousand objects into the run, still inside the heap's warm-up.
    const from = ctx.quick ? '50%' : '10%';
    const base = at[from];
    const growth = base && at['90%'] ? (at['90%'] - base) / base : Number.NaN;
    const targets = [
      check('peak RSS', `<= ${TARGET_PEAK_MB} MB`, `${run.peakRssMB} MB`, run.peakRssMB <= TARGET_PEAK_MB),
      check(
        `RSS ${from}→90%${ctx.quick ? ' (quick: 10% is in warm-up)' : ''}`,
        `<= +${FLAT_GROWTH * 100}%`,
        Number.isFinite(growth) ? `${round(growth * 100)}%` : 'unknown',
        Number.isFinite(growth) && growth <= FLAT_GROWTH,
      ),
    ];
    const verdict = verdictOf(targets);
    const notes = [
      ...describeTime(run),
      `throughput per tenth of the run (objects/s): ${run.ratePerTenth.join(', ')}`,
      pipelineBottleneck(run),
    ];
    const heap = (run.outcome.done.heapUsedMiB as number) ?? null;
    return {
      id: '5',
      title: TITLE,
      verdict,
      figures:
        `${run.summary.read} objects${objects < FULL_SIZE && !ctx.quick ? ` (scaled from ${FULL_SIZE}: see settings)` : ''} in ${round(run.wallMs / 1000)} s (${round(run.objectsPerSecond)}/s); ` +
        `RSS peak ${run.peakRssMB} MB, at 10/50/90%: ${at['10%']}/${at['50%']}/${at['90%']} MB`,
      targets,
      metrics: {
        objects: run.summary.read,
        wallSeconds: round(run.wallMs / 1000, 1),
        objectsPerSecond: round(run.objectsPerSecond),
        objectsPerSecondPerTenth: run.ratePerTenth,
        peakRssMB: run.peakRssMB,
        rssAtProgressMB: at,
        rssAtReadyMB: run.rssAtReadyMB,
        memoryAtPeak: run.memoryAtPeak,
        heapUsedAtEndMiB: heap,
        rssSamples: run.outcome.rss.length,
        rssTimelineMB: thin(
          run.outcome.rss.map((s) => round(s.rssMB)),
          50,
        ),
        workerCpuSeconds: round(run.cpuSeconds, 1),
        postgresCpuSeconds: run.postgresCpuSeconds,
        time: run.meter,
        tableStats: run.tableStats,
      },
      settings: {
        objects,
        fullSize: FULL_SIZE,
        scale:
          objects === FULL_SIZE
            ? 'full'
            : `${objects} of ${FULL_SIZE} objects (${ctx.quick ? 'quick' : 'full size takes over 10 minutes here; --memory-objects 1000000'})`,
        slices,
        readAhead,
        rateLimit: 'off',
        rssSampling: '/proc/<pid>/status VmRSS every 200 ms',
      },
      notes,
      ...(verdict === 'missed' ? { bottleneck: memoryBottleneck(run) } : {}),
      durationMs: Date.now() - started,
    };
  } finally {
    await world.close();
  }
}

/** Where the worker's resident memory is, at its peak. */
function memoryBottleneck(run: BulkSyncResult): string {
  const at = run.rssAtProgressMB;
  const parts = run.memoryAtPeak?.parts;
  const heap = parts
    ? `; near the peak the V8 heap had ${parts.heapTotal} MB reserved (${parts.heapUsed} MB in use) and ` +
      `${parts.external} MB lay outside it (${parts.arrayBuffers} MB of array buffers), the rest being code, ` +
      'stacks and allocator space'
    : '';
  return (
    `peak RSS ${run.peakRssMB} MB (RSS at 10/50/90%: ${at['10%']}/${at['50%']}/${at['90%']} MB); ` +
    `${run.rssAtReadyMB ?? '?'} MB were resident before the first page (node, the tsx loader and the modules)${heap}`
  );
}

/** At most `count` values, evenly picked, for a timeline in the JSON. */
export function thin(values: readonly number[], count: number): number[] {
  if (values.length <= count) return [...values];
  return Array.from(
    { length: count },
    (_, i) => values[Math.floor((i * (values.length - 1)) / (count - 1))]!,
  );
}
