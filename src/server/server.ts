import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { DEFAULT_WATCHDOG_LEAD_MS } from '../../jobs/watchdog.ts';
import { healthRoutes } from './health-routes.ts';
import { type WebhookRouteDeps, webhookRoute } from './webhook-route.ts';

export interface ServerDeps
  extends Omit<
    WebhookRouteDeps,
    'maxBodyBytes' | 'answerWithinMs' | 'maxEventAgeMs' | 'watchdogLeadMs' | 'now'
  > {
  redis: Pick<Redis, 'ping'>;
  maxBodyBytes?: number;
  answerWithinMs?: number;
  maxEventAgeMs?: number;
  watchdogLeadMs?: number;
  now?: () => number;
}

export interface RunningServer {
  app: FastifyInstance;
  /** Base URL, e.g. http://127.0.0.1:8080 (the webhook route is `${url}/webhooks`). */
  url: string;
  close(): Promise<void>;
}

/** Defaults: an event envelope is a few hundred bytes; 256 KiB leaves room and refuses floods. */
export const SERVER_DEFAULTS = {
  maxBodyBytes: 256 * 1024,
  answerWithinMs: 900,
  // F21 retries for about 17 minutes (10 retries, doubling from 1 s); a day is far past that.
  maxEventAgeMs: 24 * 3_600_000,
} as const;

export function buildServer(deps: ServerDeps): FastifyInstance {
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    bodyLimit: SERVER_DEFAULTS.maxBodyBytes,
  });
  void app.register(healthRoutes({ sql: deps.sql, redis: deps.redis }));
  void app.register(
    webhookRoute({
      ...deps,
      maxBodyBytes: deps.maxBodyBytes ?? SERVER_DEFAULTS.maxBodyBytes,
      answerWithinMs: deps.answerWithinMs ?? SERVER_DEFAULTS.answerWithinMs,
      maxEventAgeMs: deps.maxEventAgeMs ?? SERVER_DEFAULTS.maxEventAgeMs,
      watchdogLeadMs: deps.watchdogLeadMs ?? DEFAULT_WATCHDOG_LEAD_MS,
      now: deps.now ?? Date.now,
    }),
  );
  return app;
}

/** The worker's HTTP side: the webhook receiver and health checks. */
export async function startServer(
  deps: ServerDeps,
  listen: { host: string; port: number },
): Promise<RunningServer> {
  const app = buildServer(deps);
  await app.listen({ host: listen.host, port: listen.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return { app, url: `http://${host}:${port}`, close: () => app.close() };
}
