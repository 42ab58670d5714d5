/**
 * One worker process of the rate-limit fairness run: a platform client that shares nothing with
 * its siblings but Redis, pulling as fast as its permits allow until the deadline.
 *
 * Started with child_process.fork (node --import tsx). Protocol over IPC:
 *   argv[2] = JSON PullWorkerConfig
 *   child -> {type: 'ready'} once it holds a token
 *   parent -> {type: 'go', until: epoch ms}
 *   child -> {type: 'done', requests, errors, stats} and exits
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger } from '../../../../src/log.ts';
import { createPlatformClient } from '../../../../src/platform/client.ts';
import { runWithPriority } from '../../../../src/platform/priority.ts';
import type { RateLimiterOptions } from '../../../../src/platform/rate-limiter.ts';

export interface PullWorkerConfig {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  redisUrl: string;
  keyPrefix: string;
  limiter: Partial<RateLimiterOptions>;
  /** Requests in flight at once in this process. */
  concurrency: number;
  /** The GET to repeat (a cheap one). */
  path: string;
  /** Pull in the limiter's priority lane (as a sync-button run does) instead of the bulk lane. */
  priority?: boolean;
  /** Pause between two requests of one loop, for a demand below the budget (default none). */
  paceMs?: number;
}

export interface PullWorkerReport {
  type: 'done';
  priority: boolean;
  requests: number;
  /** How long requests took, permit wait included (ms): with the stub's latency at 0, the wait. */
  requestMs: { p50: number; p99: number; max: number };
  errors: string[];
  stats: unknown;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as PullWorkerConfig;
  const client = createPlatformClient({
    baseUrl: config.apiUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    scopes: ['entities:read', 'accounting:read', 'transactions:read'],
    redis: config.redisUrl,
    keyPrefix: config.keyPrefix,
    limiter: config.limiter,
    retry: { maxAttempts: 5, baseMs: 50, capMs: 500 },
    requestTimeoutMs: 10_000,
    log: silentLogger,
  });
  await client.request({ method: 'GET', path: config.path });
  const until = await new Promise<number>((resolve) => {
    process.on('message', (message: { type?: string; until?: number }) => {
      if (message.type === 'go' && typeof message.until === 'number') resolve(message.until);
    });
    process.send?.({ type: 'ready' });
  });
  let requests = 0;
  const durations: number[] = [];
  const errors: string[] = [];
  const loop = async () => {
    while (Date.now() < until) {
      try {
        const started = performance.now();
        await client.request({ method: 'GET', path: config.path });
        durations.push(performance.now() - started);
        requests++;
      } catch (error) {
        if (Date.now() < until) errors.push(error instanceof Error ? error.message : String(error));
      }
      if (config.paceMs) await sleep(Math.min(config.paceMs, Math.max(0, until - Date.now())));
    }
  };
  // close() at the deadline ends the loops that still wait for a permit.
  const deadline = setTimeout(() => void client.close(), Math.max(0, until - Date.now()));
  const pull = () => Promise.all(Array.from({ length: config.concurrency }, loop));
  await (config.priority ? runWithPriority(pull) : pull());
  clearTimeout(deadline);
  const stats = client.stats();
  await client.close();
  const report: PullWorkerReport = {
    type: 'done',
    priority: config.priority === true,
    requests,
    requestMs: summary(durations),
    errors: errors.slice(0, 5),
    stats,
  };
  process.send?.(report, () => process.exit(0));
}

function summary(durations: number[]): PullWorkerReport['requestMs'] {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { p50: at(0.5), p99: at(0.99), max: Math.round(sorted.at(-1) ?? 0) };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
