import type { RunningStub } from '@ledgersync/stub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRedis } from '../../support/redis.ts';
import { maxInAnyWindow, runPullWorkers } from './support/pull-workers.ts';
import { addClient, control, effects, startTestStub } from './support/stub.ts';

/**
 * docs/platform.md F3 with real processes: four workers, each its own client and process, share
 * only Redis and the source IP. Scaled down from 200 per 10 s over 60 s to 50 per 2 s over 8 s;
 * test/bench/limiter-fairness.ts runs the full size.
 */
const redis = useTestRedis();
const MAX = 50;
const WINDOW_MS = 2_000;
const DURATION_MS = 8_000;
let stub: RunningStub;

beforeAll(async () => {
  stub = await startTestStub({ rateLimit: { max: MAX, windowMs: WINDOW_MS } });
  await control(stub, 'POST', '/__stub/seed', { seed: 2, transactions: 10, entities: 2 });
});

afterAll(async () => {
  await stub?.close();
});

/** One run of four pull-worker processes; the first `priorityWorkers` pull in the priority lane. */
async function pullRun(egressId: string, priorityWorkers: number) {
  const credentials = await addClient(stub);
  const run = await runPullWorkers(
    {
      apiUrl: stub.apiUrl,
      ...credentials,
      redisUrl: redis.url,
      keyPrefix: redis.prefix,
      limiter: { max: MAX, windowMs: WINDOW_MS, margin: 2, windowPadMs: 150, egressId },
      concurrency: 4,
      path: '/entities?page_size=2',
    },
    { workers: 4, durationMs: DURATION_MS, settleMs: WINDOW_MS + 200, priorityWorkers },
  );
  // Runs are more than a window apart (the settle time), so a run's window starts with it.
  const arrivals = (await effects(stub)).arrivals.filter((a) => a.at >= run.startedAt - WINDOW_MS);
  const admitted = arrivals.filter((a) => a.status !== 429);
  const inRun = admitted.filter((a) => a.at >= run.startedAt && a.at <= run.until);
  const budget = (MAX * DURATION_MS) / WINDOW_MS;
  const maxSeen = maxInAnyWindow(
    admitted.map((a) => a.at),
    WINDOW_MS,
  );
  return { run, arrivals, inRun, budget, maxSeen };
}

describe('shared rate limit across processes (docs/platform.md F3)', () => {
  it('F3: 4 processes never put more than max arrivals in any window, get no 429, and use >= 90% of the budget', async () => {
    const { run, arrivals, inRun, budget, maxSeen } = await pullRun('fairness', 0);

    expect(run.reports.flatMap((r) => r.errors)).toEqual([]);
    expect(arrivals.filter((a) => a.status === 429)).toEqual([]);
    expect(maxSeen).toBeLessThanOrEqual(MAX);
    expect(inRun.length / budget).toBeGreaterThanOrEqual(0.9);
    // Every process got a share of the budget.
    for (const report of run.reports) expect(report.requests).toBeGreaterThan(inRun.length / 16);
    console.info(
      `fairness: ${inRun.length} arrivals in ${DURATION_MS} ms = ${((100 * inRun.length) / budget).toFixed(1)}% ` +
        `of ${budget}; max ${maxSeen} in any ${WINDOW_MS} ms; per process ${run.reports.map((r) => r.requests).join('/')}`,
    );
  });

  it('F3: a process in the priority lane gets its share (half a window) ahead of three saturating bulk processes, which keep the rest; no 429', async () => {
    const { run, arrivals, inRun, budget, maxSeen } = await pullRun('fairness-lanes', 1);
    const [priority, ...bulk] = run.reports;
    const bulkRequests = bulk.reduce((sum, r) => sum + r.requests, 0);

    expect(priority?.priority).toBe(true);
    expect(run.reports.flatMap((r) => r.errors)).toEqual([]);
    expect(arrivals.filter((a) => a.status === 429)).toEqual([]);
    expect(maxSeen).toBeLessThanOrEqual(MAX);
    expect(inRun.length / budget).toBeGreaterThanOrEqual(0.9);
    // One process among four: as a bulk process it would get about a quarter.
    expect(priority!.requests / inRun.length).toBeGreaterThanOrEqual(0.4);
    // Not starved: bulk keeps the rest, and every bulk process progressed.
    expect(bulkRequests / inRun.length).toBeGreaterThanOrEqual(0.4);
    for (const report of bulk) expect(report.requests).toBeGreaterThan(inRun.length / 16);
    console.info(
      `fairness with a priority process: ${inRun.length} arrivals = ${((100 * inRun.length) / budget).toFixed(1)}% ` +
        `of ${budget}; max ${maxSeen} in any ${WINDOW_MS} ms; priority ${priority!.requests}, ` +
        `bulk ${bulk.map((r) => r.requests).join('/')}`,
    );
  });
});
