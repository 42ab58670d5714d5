import { type BulkSyncResult, readyTransactions, round, runBulkSync } from '../lib/bulk-sync.ts';
import type { BenchContext } from '../lib/context.ts';
import { check, type ScenarioResult, verdictOf } from '../lib/result.ts';
import { createWorld } from '../lib/world.ts';
import { describeTime, describeYardstick, hostYardstick, pipelineBottleneck } from './explain.ts';
import type { Tuning } from './index.ts';

const TITLE = 'Raw pipeline';
const TARGET_OBJECTS_PER_SECOND = 4000;
/** The client's own limiter is opened too: only the pipeline limits the rate. */
export const UNLIMITED = { max: 1_000_000, margin: 0, windowPadMs: 0 };

/** Rate limit off, no added latency: objects/s, CPU seconds and peak RSS of the worker. */
export async function rawPipeline(ctx: BenchContext, tuning: Tuning): Promise<ScenarioResult> {
  const started = Date.now();
  const objects = ctx.quick ? 20_000 : 200_000;
  const slices = 4;
  const readAhead = 4;
  const world = await createWorld(ctx, 's2', { rule: { rateMax: 0, rateWindowMs: 10_000, latencyMs: 0 } });
  let run: BulkSyncResult;
  try {
    await world.seed(readyTransactions(objects));
    run = await runBulkSync(ctx, world, {
      objects,
      slices,
      readAhead,
      pageConcurrency: tuning.pageConcurrency,
      limiter: UNLIMITED,
      label: 's2',
    });
  } finally {
    await world.close();
  }
  const perSecond = round(run.objectsPerSecond);
  const targets = [
    check(
      'objects/s',
      `>= ${TARGET_OBJECTS_PER_SECOND}`,
      String(perSecond),
      perSecond >= TARGET_OBJECTS_PER_SECOND,
    ),
  ];
  const verdict = verdictOf(targets);
  const yardstick = hostYardstick(run, TARGET_OBJECTS_PER_SECOND);
  const hostLine = yardstick ? describeYardstick(yardstick, TARGET_OBJECTS_PER_SECOND) : null;
  const notes = [
    ...describeTime(run),
    ...(hostLine ? [hostLine] : []),
    ...(run.profile
      ? [
          'the worker ran under --cpu-prof (1 ms sampling): 10-15 % more worker CPU, and its RSS includes the profile buffer',
        ]
      : []),
  ];
  return {
    id: '2',
    title: TITLE,
    verdict,
    figures:
      `${run.summary.read} objects in ${round(run.wallMs / 1000, 1)} s = ${perSecond}/s; worker CPU ${round(run.cpuSeconds, 1)} s, peak RSS ${run.peakRssMB} MB` +
      (yardstick ? `; stub CPU ${yardstick.stubCpuMsPerRequest} ms a request` : ''),
    targets,
    metrics: {
      objects: run.summary.read,
      posted: run.summary.posted,
      failed: run.summary.failed,
      wallSeconds: round(run.wallMs / 1000, 2),
      objectsPerSecond: perSecond,
      workerCpuSeconds: round(run.cpuSeconds, 2),
      workerCpuShare: round(run.cpuSeconds / (run.wallMs / 1000), 2),
      stubCpuSeconds: run.stubCpuSeconds,
      hostYardstick: yardstick,
      postgresCpuSeconds: run.postgresCpuSeconds,
      peakRssMB: run.peakRssMB,
      requests: run.arrivals.requests,
      requestsByRoute: run.arrivals.byRoute,
      tableStats: run.tableStats,
      time: run.meter,
      cpuProfile: run.profile,
    },
    settings: {
      objects,
      fullSize: 200_000,
      slices,
      readAhead,
      pageConcurrency: tuning.pageConcurrency ?? "the pipeline's default",
      rateLimit: 'off',
      latencyMs: 0,
    },
    notes,
    ...(verdict === 'missed'
      ? { bottleneck: `${pipelineBottleneck(run)}${hostLine ? `; ${hostLine}` : ''}` }
      : {}),
    durationMs: Date.now() - started,
  };
}
