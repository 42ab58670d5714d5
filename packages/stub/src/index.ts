import { type Logger, silentLogger } from '../../../src/log.ts';
import { API_PREFIX } from '../../../src/platform/schemas/common.ts';
import { DEFAULT_RATE_LIMIT } from './rules/rate-limit.ts';
import { createStubServer } from './server.ts';
import { type StubConfig, StubState, sweepSyncWindow } from './state.ts';

/**
 * The built-in svc platform stub: a real HTTP server reproducing the accounting-sync surface of
 * the developer API (packages/stub/README.md). Start it in-process for tests, or in the foreground with
 * `ledgersync stub`, or as a separate process with src/main.ts (README.md of this package).
 */

export { ALL_STUB_SCOPES, DEFAULT_CLIENT } from './auth.ts';
export { kindPath, makeId, OBJECT_KINDS, parseId } from './core/ids.ts';
export { validationError } from './core/validate.ts';
export { PRECONDITIONS } from './rules/migration.ts';
export { SeedRequest } from './seed.ts';
export type { StubConfig } from './state.ts';
export { StubState } from './state.ts';
export { minorUnitRate } from './world/generate-common.ts';
export { timeOf } from './world/world.ts';

export interface StubOptions {
  /** 0 = any free port (default 0). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default { max: 200, windowMs: 10_000 } (docs/platform.md F3); false = no limit. */
  rateLimit?: { max: number; windowMs: number } | false;
  /** Extra latency added to every platform route (default 0). */
  latencyMs?: number;
  log?: Logger;
  /** Clock base; POST /__stub/clock advances on top of it. */
  now?: () => number;
  /** Other tunables (504 threshold, webhook backoff, sync window); see StubConfig. */
  config?: Partial<StubConfig>;
}

export interface RunningStub {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  /** url + '/developer/v1' */
  apiUrl: string;
  state: StubState;
  close(): Promise<void>;
}

/** How often real time moves the sync-button window along (the stub clock also moves it). */
const SWEEP_INTERVAL_MS = 1_000;

export async function startStub(options: StubOptions = {}): Promise<RunningStub> {
  const log = options.log ?? silentLogger;
  const state = new StubState({
    now: options.now,
    log,
    config: {
      ...options.config,
      rateLimit: options.rateLimit ?? options.config?.rateLimit ?? DEFAULT_RATE_LIMIT,
      latencyMs: options.latencyMs ?? options.config?.latencyMs ?? 0,
    },
  });
  const { app, stopping } = createStubServer(state);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const tick = setInterval(() => sweepSyncWindow(state), SWEEP_INTERVAL_MS);
  tick.unref();
  log.info({ url }, 'svc platform stub started');

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      clearInterval(tick);
      stopping.abort();
      state.webhooks.stop();
      await app.close();
    })();
    return closing;
  };
  return { url, apiUrl: url + API_PREFIX, state, close };
}

/**
 * `ledgersync stub [--port N] [--host H] [--published-answers]`: runs in the foreground until
 * SIGINT or SIGTERM. Resolves once the server is closed.
 */
export async function runStubCommand(
  options: { port?: number; host?: string; publishedAnswers?: boolean } = {},
): Promise<void> {
  const stub = await startStub({
    port: options.port ?? 4010,
    host: options.host,
    config: { publishedAnswers: options.publishedAnswers === true },
  });
  // Handlers first, then the line: whoever waits for the line may signal at once.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void stub.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write(`svc platform stub listening on ${stub.apiUrl}\n`);
  await stopped;
}
