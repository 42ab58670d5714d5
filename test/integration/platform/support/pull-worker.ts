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
import { silentLogger } from '../../../../src/log.ts';
import { createPlatformClient } from '../../../../src/platform/client.ts';
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
}

export interface PullWorkerReport {
  type: 'done';
  requests: number;
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
  const errors: string[] = [];
  const loop = async () => {
    while (Date.now() < until) {
      try {
        await client.request({ method: 'GET', path: config.path });
        requests++;
      } catch (error) {
        if (Date.now() < until) errors.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  // close() at the deadline ends the loops that still wait for a permit.
  const deadline = setTimeout(() => void client.close(), Math.max(0, until - Date.now()));
  await Promise.all(Array.from({ length: config.concurrency }, loop));
  clearTimeout(deadline);
  const stats = client.stats();
  await client.close();
  const report: PullWorkerReport = { type: 'done', requests, errors: errors.slice(0, 5), stats };
  process.send?.(report, () => process.exit(0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
