import { Queue } from 'bullmq';
import type { RateLimiterOptions } from '../../src/platform/index.ts';
import { bullConnection, QUEUE_NAMES, syncButtonJobId } from '../../src/queue/index.ts';
import type { BenchContext } from './context.ts';
import { intervalsOverlap } from './intervals.ts';
import { percentile } from './percentile.ts';
import { productArrivals, productResponderPresent, startProductWorker } from './product-worker.ts';
import { startWorker } from './worker-run.ts';
import type { World } from './world.ts';

/** Whatever answers sync-button presses in scenario 3, and what it can tell about its runs. */
export interface ButtonResponder {
  kind: 'product' | 'bench';
  description: string;
  /** Redis prefix of its platform client; the bulk sync shares it, and with it the budget. */
  platformPrefix: string;
  stop(): Promise<void>;
  /** When each press's webhook arrived (by sync_request_id). */
  arrivals(): Promise<Map<string, number>>;
  /** When each press's run started and finished (and what it answered), by sync_request_id. */
  runs(syncRequestIds: readonly string[]): Promise<Map<string, RunTimes>>;
  /** Figures about its runs for the JSON (runs recorded, limiter). */
  diagnostics(): Promise<Record<string, unknown>>;
}

export interface RunTimes {
  startedAt: number | null;
  finishedAt: number | null;
  outcome: string | null;
}

/**
 * The product's responder (`ledgersync worker`: webhook receiver, queue, sync-button job) when it
 * exists; otherwise a bench worker that runs syncObjects(..., { syncRequestId }) when the webhook
 * arrives.
 */
export async function startButtonResponder(
  ctx: BenchContext,
  world: World,
  limiter: Partial<RateLimiterOptions> | undefined,
): Promise<ButtonResponder> {
  if (productResponderPresent()) {
    const worker = await startProductWorker(ctx, world, limiter);
    return {
      kind: 'product',
      description:
        '`ledgersync worker --no-schedules`: webhook receiver (src/server), syncButton queue, jobs/sync-button.ts (runSyncButton)',
      platformPrefix: worker.platformPrefix,
      stop: () => worker.stop(),
      arrivals: () => productArrivals(ctx, world),
      runs: (ids) => productJobTimes(ctx, world, ids),
      diagnostics: () => productRuns(ctx, world),
    };
  }
  const button = startWorker(
    world.workerConfig({
      task: 'button',
      sync: { kind: 'reimbursements', slices: 1, readAhead: 1 },
      ...(limiter ? { limiter } : {}),
    }),
  );
  await button.ready;
  let finished: Awaited<typeof button.finished> | undefined;
  return {
    kind: 'bench',
    description:
      'no sync-button responder in the product yet: a bench worker process receives the webhook and runs syncObjects(..., { syncRequestId }) on its arrival (bench/lib/task-button.ts)',
    platformPrefix: world.redisPrefix,
    async stop() {
      button.stop();
      finished = await button.finished;
    },
    arrivals: async () => new Map(button.events.map((e) => [e.syncRequestId, e.arrivedAt])),
    runs: async () =>
      new Map(
        button.events.map((e) => [
          e.syncRequestId,
          { startedAt: e.arrivedAt, finishedAt: e.finishedAt, outcome: `read ${e.read}` },
        ]),
      ),
    diagnostics: async () => ({
      limiter: finished?.done.limiter,
      time: finished?.done.meter,
      runSeconds: button.events.map((e) => Math.round(e.finishedAt - e.arrivedAt) / 1000),
    }),
  };
}

/** The product's sync-button jobs (BullMQ keeps finished ones a day): when each started and ended. */
async function productJobTimes(
  ctx: BenchContext,
  world: World,
  ids: readonly string[],
): Promise<Map<string, RunTimes>> {
  const queue = new Queue(QUEUE_NAMES.syncButton, {
    connection: bullConnection(ctx.redisUrl),
    prefix: world.redisPrefix,
  });
  try {
    const times = new Map<string, RunTimes>();
    for (const id of ids) {
      const job = await queue.getJob(syncButtonJobId(id));
      const value = job?.returnvalue as { outcome?: string } | undefined;
      times.set(id, {
        startedAt: job?.processedOn ?? null,
        finishedAt: job?.finishedOn ?? null,
        outcome: value?.outcome ?? (job?.failedReason ? `failed: ${job.failedReason}` : null),
      });
    }
    return times;
  } finally {
    await queue.close();
  }
}

/** The sync-button runs the product recorded (runs table): how long they took and ran side by side. */
async function productRuns(ctx: BenchContext, world: World): Promise<Record<string, unknown>> {
  const rows = await ctx.admin.unsafe<{ started_at: Date; finished_at: Date | null; status: string }[]>(
    `select started_at, finished_at, status from "${world.schema}".runs where trigger = 'sync_button' order by started_at`,
  );
  const intervals = rows.map((r) => ({
    start: r.started_at.getTime(),
    end: (r.finished_at ?? r.started_at).getTime(),
  }));
  const durations = intervals.map((i) => i.end - i.start);
  return {
    runs: rows.length,
    statuses: rows.reduce<Record<string, number>>((acc, r) => {
      acc[r.status] = (acc[r.status] ?? 0) + 1;
      return acc;
    }, {}),
    runMs: {
      p50: percentile(durations, 50),
      p99: percentile(durations, 99),
      max: percentile(durations, 100),
    },
    mostRunsAtOnce: intervalsOverlap(intervals),
  };
}
