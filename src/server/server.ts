import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { healthRoutes } from './health-routes.ts';
import { type ConsentRouteDeps, oauthCallbackRoute } from './oauth-routes.ts';
import { operatorAccess } from './operator/operator-access.ts';
import { type OperatorOptions, operatorRoutes } from './operator/operator-routes.ts';
import { type WebhookRouteDeps, webhookRoute } from './webhooks/webhook-route.ts';

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
  /** When an event reached us; unset: the database's clock (accept-event.ts). */
  now?: () => number | Promise<number>;
  /** The operator surface (status page, metrics, queue dashboard); none without it. */
  operator?: OperatorOptions;
  /** PLATFORM_GRANT=authorization_code: the consent routes (src/server/oauth-routes.ts). */
  consent?: ConsentRouteDeps;
}

export interface RunningServer {
  app: FastifyInstance;
  /** Base URL, e.g. http://127.0.0.1:8080 (the webhook route is `${url}/webhooks`). */
  url: string;
  close(): Promise<void>;
}

/** Defaults: an event envelope is a few hundred bytes; 256 KiB leaves room and refuses floods. */
const SERVER_DEFAULTS = {
  maxBodyBytes: 256 * 1024,
  answerWithinMs: 900,
  // F21 retries for about 17 minutes (10 retries, doubling from 1 s); a day is far past that.
  maxEventAgeMs: 24 * 3_600_000,
} as const;

/**
 * Bounds on slow and idle sockets (Node's and fastify's defaults leave some unbounded), so a flood
 * of stalled connections is shed within seconds instead of holding file descriptors and memory:
 * - headers must arrive within 5 s of the connection (or of the previous response);
 * - a whole request, body included, within 10 s: a webhook delivery must be answered within
 *   10 s anyway (docs/platform.md F21), and the bodies are small (maxBodyBytes);
 * - a kept-alive connection is closed after 5 s without a new request;
 * - a socket silent for 15 s is destroyed whatever it is doing (no handler takes that long:
 *   webhooks answer within answerWithinMs, /metrics waits at most 2 s for its reads);
 * - Node checks the header and request bounds every second (its default is every 30 s, which
 *   would let a stalled socket live up to 30 s past its bound).
 * Timed-out requests get 408 where an answer is still possible; the socket is closed either way.
 */
export const SERVER_TIMEOUTS = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  idleSocketTimeoutMs: 15_000,
  checkEveryMs: 1_000,
} as const;

/**
 * `host` is where the server listens: the operator pages are open without a token only on
 * loopback. Unknown (a server built for inject()) counts as beyond loopback.
 */
export function buildServer(deps: ServerDeps, host?: string): FastifyInstance {
  const t = SERVER_TIMEOUTS;
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    bodyLimit: SERVER_DEFAULTS.maxBodyBytes,
    connectionTimeout: t.idleSocketTimeoutMs,
    keepAliveTimeout: t.keepAliveTimeoutMs,
    requestTimeout: t.requestTimeoutMs,
    http: {
      headersTimeout: t.headersTimeoutMs,
      requestTimeout: t.requestTimeoutMs,
      keepAliveTimeout: t.keepAliveTimeoutMs,
      connectionsCheckingInterval: t.checkEveryMs,
    },
  });
  void app.register(healthRoutes({ sql: deps.sql, redis: deps.redis, queues: deps.queues }));
  void app.register(
    webhookRoute({
      ...deps,
      maxBodyBytes: deps.maxBodyBytes ?? SERVER_DEFAULTS.maxBodyBytes,
      answerWithinMs: deps.answerWithinMs ?? SERVER_DEFAULTS.answerWithinMs,
      maxEventAgeMs: deps.maxEventAgeMs ?? SERVER_DEFAULTS.maxEventAgeMs,
      ...(deps.now ? { now: deps.now } : {}),
    }),
  );
  if (deps.consent) void app.register(oauthCallbackRoute(deps.consent));
  if (deps.operator) {
    void app.register(
      operatorRoutes({
        ...(deps.consent ? { consent: deps.consent } : {}),
        sql: deps.sql,
        queues: deps.queues,
        connectionId: deps.connectionId,
        access: operatorAccess(deps.operator.token, host),
        metrics: deps.operator.metrics,
        dashboard: deps.operator.dashboard ?? true,
      }),
    );
  }
  return app;
}

/** The worker's HTTP side: the webhook receiver, health checks and the operator surface. */
export async function startServer(
  deps: ServerDeps,
  listen: { host: string; port: number },
): Promise<RunningServer> {
  if (deps.operator && operatorAccess(deps.operator.token, listen.host).mode === 'closed') {
    // Config refuses this too; a server built another way must not serve the pages unguarded.
    throw new Error(`OPERATOR_TOKEN is required when the server listens beyond loopback (${listen.host})`);
  }
  const app = buildServer(deps, listen.host);
  await app.listen({ host: listen.host, port: listen.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return { app, url: `http://${host}:${port}`, close: () => app.close() };
}
