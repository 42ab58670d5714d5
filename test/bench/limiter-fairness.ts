/**
 * Full-size run of the shared rate limiter (docs/platform.md F3): 4 worker processes, each with its
 * own platform client, share one Redis and one source IP and pull as fast as their permits allow
 * for 60 s against the stub at 200 requests per rolling 10 s. Prints the largest number of
 * arrivals the stub saw in any 10 s window, the 429s, and the share of the budget used.
 * With --priority-workers N, the first N processes pull in the limiter's priority lane (as
 * sync-button runs do), with their own concurrency and an optional pause between requests; the
 * figures then show each lane's share and how long its requests took (permit wait included).
 *
 *   npx tsx test/bench/limiter-fairness.ts [--seconds 60] [--workers 4] [--concurrency 8]
 *                                          [--redis-url redis://...] [--margin 0] [--pad-ms 250]
 *                                          [--priority-workers 0] [--priority-concurrency 1]
 *                                          [--priority-pace-ms 0]
 *
 * Without --redis-url a private redis-server is started (it must be on PATH).
 * Not part of the test command.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { startStub } from '@ledgersync/stub';
import { startEmbeddedRedis } from '../../src/infra/index.ts';
import { createLogger } from '../../src/log.ts';
import type { PullWorkerReport } from '../integration/platform/support/pull-worker.ts';
import { maxInAnyWindow, runPullWorkers } from '../integration/platform/support/pull-workers.ts';
import { addClient, control, effects } from '../integration/platform/support/stub.ts';

const MAX = 200;
const WINDOW_MS = 10_000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '60' },
      workers: { type: 'string', default: '4' },
      concurrency: { type: 'string', default: '8' },
      'redis-url': { type: 'string' },
      margin: { type: 'string', default: '0' },
      'pad-ms': { type: 'string', default: '250' },
      'priority-workers': { type: 'string', default: '0' },
      'priority-concurrency': { type: 'string', default: '1' },
      'priority-pace-ms': { type: 'string', default: '0' },
    },
  });
  const durationMs = Number(values.seconds) * 1000;
  const log = createLogger({ level: 'warn', pretty: false });
  const redis = values['redis-url'] ? null : await startEmbeddedRedis(log);
  const redisUrl = values['redis-url'] ?? redis!.url;
  const stub = await startStub({ port: 0, rateLimit: { max: MAX, windowMs: WINDOW_MS }, latencyMs: 0 });
  try {
    await control(stub, 'POST', '/__stub/seed', { seed: 1, transactions: 10, entities: 2 });
    const credentials = await addClient(stub);
    const run = await runPullWorkers(
      {
        apiUrl: stub.apiUrl,
        ...credentials,
        redisUrl,
        keyPrefix: `bench:${randomBytes(4).toString('hex')}`,
        limiter: {
          max: MAX,
          windowMs: WINDOW_MS,
          margin: Number(values.margin),
          windowPadMs: Number(values['pad-ms']),
          egressId: 'bench',
        },
        concurrency: Number(values.concurrency),
        path: '/entities?page_size=2',
      },
      {
        workers: Number(values.workers),
        durationMs,
        settleMs: WINDOW_MS + 500,
        priorityWorkers: Number(values['priority-workers']),
        priorityConfig: {
          concurrency: Number(values['priority-concurrency']),
          paceMs: Number(values['priority-pace-ms']),
        },
      },
    );
    const { arrivals } = await effects(stub);
    const admitted = arrivals.filter((a) => a.status !== 429);
    const inRun = admitted.filter((a) => a.at >= run.startedAt && a.at <= run.until);
    const budget = (MAX * durationMs) / WINDOW_MS;
    const result = {
      max_in_any_window: maxInAnyWindow(
        admitted.map((a) => a.at),
        WINDOW_MS,
      ),
      limit: MAX,
      answered_429: arrivals.length - admitted.length,
      arrivals_in_run: inRun.length,
      budget,
      budget_used_pct: Number(((100 * inRun.length) / budget).toFixed(1)),
      per_process: run.reports.map((r) => r.requests),
      ...laneFigures(run.reports, inRun.length),
      errors: run.reports.flatMap((r) => r.errors),
      limited_at_ms: arrivals.filter((a) => a.status === 429).map((a) => Math.round(a.at - run.startedAt)),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    if (result.max_in_any_window > MAX || result.answered_429 > 0) process.exitCode = 1;
  } finally {
    await stub.close();
    await redis?.stop();
  }
}

/** Each lane's share of the arrivals and the request times of its processes (ms). */
function laneFigures(reports: PullWorkerReport[], arrivals: number): Record<string, unknown> {
  const priority = reports.filter((r) => r.priority);
  if (priority.length === 0) return {};
  const lane = (rs: PullWorkerReport[]) => {
    const requests = rs.reduce((sum, r) => sum + r.requests, 0);
    return {
      requests,
      share_pct: Number(((100 * requests) / arrivals).toFixed(1)),
      request_ms: rs.map((r) => r.requestMs),
    };
  };
  return { priority: lane(priority), bulk: lane(reports.filter((r) => !r.priority)) };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
