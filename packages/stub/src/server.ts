import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { API_PREFIX, TRACE_ID_HEADER } from '../../../src/platform/schemas/common.ts';
import { ApiError, errorBody } from './core/errors.ts';
import { MAX_BODY_BYTES, parseBody, queryObject, sendJson } from './core/http.ts';
import type { Method, RouteDef } from './core/route.ts';
import { METHODS, type PathRoutes, routesByPath } from './core/route-table.ts';
import { AUTHORIZE_PATH, handleAuthorize } from './oauth/authorize.ts';
import { buildOpenApi } from './openapi.ts';
import { handlePlatform, toApiError } from './platform-request.ts';
import { accountingVendorRoutes } from './routes/accounting-vendors.ts';
import { authRoutes } from './routes/auth.ts';
import { connectionRoutes } from './routes/connection.ts';
import { controlConfigRoutes } from './routes/control-config.ts';
import { controlOAuthRoutes } from './routes/control-oauth.ts';
import { controlObserveRoutes } from './routes/control-observe.ts';
import { controlWorldRoutes } from './routes/control-world.ts';
import { entityRoutes } from './routes/entities.ts';
import { fieldRoutes } from './routes/fields.ts';
import { glAccountRoutes } from './routes/gl-accounts.ts';
import { objectRoutes } from './routes/objects.ts';
import { syncRoutes } from './routes/syncs.ts';
import { taxRoutes } from './routes/tax.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import type { StubState } from './state.ts';

/**
 * The stub's HTTP server, on fastify as the worker's is: platform routes under /developer/v1
 * (rate limited, authenticated, fault-injected: platform-request.ts), control routes under
 * /__stub (none of that), /openapi.json, and the authorization endpoint /oauth/authorize
 * (docs/platform.md F44). Every response carries x-trace-id (docs/platform.md F2). fastify finds
 * the route; bodies reach the routes raw, so the platform's own rules decide what a body that is
 * not JSON, or none at all, answers (F29), after the rate limit and the faults.
 */

function platformRoutes(): RouteDef[] {
  return [
    ...authRoutes,
    ...connectionRoutes,
    ...glAccountRoutes,
    ...fieldRoutes,
    ...accountingVendorRoutes,
    ...taxRoutes,
    ...entityRoutes,
    ...objectRoutes,
    ...syncRoutes,
    ...webhookRoutes,
  ];
}

function controlRoutes(): RouteDef[] {
  return [...controlWorldRoutes, ...controlObserveRoutes, ...controlConfigRoutes, ...controlOAuthRoutes];
}

export interface StubServer {
  app: FastifyInstance;
  /** Aborted on close: pending latency waits end at once. */
  stopping: AbortController;
}

const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
const pathOf = (request: FastifyRequest) => new URL(request.url, 'http://stub.local').pathname;

export function createStubServer(state: StubState): StubServer {
  const platform = platformRoutes();
  let openapi: string | null = null;
  const stopping = new AbortController();
  let traceSeq = 0;
  const tracePrefix = randomBytes(4).toString('hex');

  const traceId = (reply: FastifyReply) =>
    // On the raw response, so that every answer carries it, hijacked ones too.
    reply.raw.setHeader(TRACE_ID_HEADER, `${tracePrefix}-${(++traceSeq).toString(16)}`);
  const unrouted = (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request);
    if (isUnder(path, API_PREFIX))
      return handlePlatform(state, request, reply, { match: null, pathExists: false }, stopping.signal);
    const message = isUnder(path, '/__stub')
      ? `no control route ${request.method} ${path}`
      : `no route ${path}`;
    sendJson(reply, 404, errorBody('DEVELOPER_7404', message));
  };

  const app = Fastify({
    logger: false,
    // A path fastify cannot decode (a bad %-escape) is a path no route has, as for any other.
    frameworkErrors: (_error, request, reply) => {
      traceId(reply);
      return unrouted(request, reply);
    },
    bodyLimit: MAX_BODY_BYTES,
    keepAliveTimeout: 5_000,
    // Closing ends every connection at once, a held (stalled) one too.
    forceCloseConnections: true,
    // Platform paths match by their segments: a trailing or doubled slash is the same path.
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      maxParamLength: 1_000,
      querystringParser: (query) => queryObject(new URLSearchParams(query)),
    },
    exposeHeadRoutes: false,
  });
  // Bodies stay raw until the route's rules have run (core/http.ts parseBody).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.addHook('onRequest', async (_request, reply) => {
    traceId(reply);
  });

  for (const url of ['/openapi.json', `${API_PREFIX}/openapi.json`]) {
    app.route({
      method: [...METHODS],
      url,
      handler: async (_request, reply) => {
        openapi ??= JSON.stringify(buildOpenApi(platform));
        sendJson(reply, 200, openapi);
      },
    });
  }
  app.route({
    method: [...METHODS],
    url: AUTHORIZE_PATH,
    handler: (req, reply) => handleAuthorize(state, req, reply),
  });

  for (const routes of routesByPath(platform)) {
    app.route({
      method: [...METHODS],
      url: API_PREFIX + routes.path,
      handler: (request, reply) => {
        const match = routes.match(request.method, request.params as Record<string, string>);
        return handlePlatform(state, request, reply, { match, pathExists: true }, stopping.signal);
      },
    });
  }
  for (const routes of routesByPath(controlRoutes())) {
    app.route({
      method: [...METHODS],
      url: routes.path,
      handler: (request, reply) => handleControl(state, routes, request, reply),
    });
  }

  app.setNotFoundHandler(unrouted);
  app.setErrorHandler((error, _request, reply) => {
    // fastify's own refusal before a route runs: a body past the limit.
    const code = (error as { code?: string }).code;
    const answer =
      code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? new ApiError('DEVELOPER_7001', 'request body too large', {}, 413)
        : toApiError(error, state);
    sendJson(reply, answer.status, answer.toBody());
  });
  return { app, stopping };
}

async function handleControl(
  state: StubState,
  routes: PathRoutes,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const method = request.method.toUpperCase() as Method;
  const path = pathOf(request);
  const match = routes.match(method, request.params as Record<string, string>);
  if (!match) {
    sendJson(reply, 405, errorBody('DEVELOPER_7404', `no control route ${method} ${path}`));
    return;
  }
  try {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const parsed = parseBody(raw, request.headers['content-type'], false);
    const answer = await match.def.handler({
      method,
      path,
      params: match.params,
      query: request.query as Record<string, string>,
      body: parsed.value,
      bodyKind: parsed.kind,
      headers: request.headers,
      state,
      auth: null,
      ip: request.raw.socket.remoteAddress ?? 'unknown',
      origin: `http://${request.headers.host ?? 'localhost'}`,
      now: state.now(),
    });
    sendJson(reply, answer.status, answer.body, answer.headers);
  } catch (err) {
    const error = toApiError(err, state);
    sendJson(reply, error.status, error.toBody());
  }
}
