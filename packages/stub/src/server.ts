import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { API_PREFIX, TRACE_ID_HEADER } from '../../../src/platform/schemas/common.ts';
import { errorBody } from './core/errors.ts';
import { parseBody, readRawBody, sendJson } from './core/http.ts';
import { type Method, queryObject, Router } from './core/router.ts';
import { AUTHORIZE_PATH, handleAuthorize } from './oauth/authorize.ts';
import { buildOpenApi } from './openapi.ts';
import { handlePlatform, toApiError } from './pipeline.ts';
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
 * The stub's HTTP server on node:http: platform routes under /developer/v1 (rate limited,
 * authenticated, fault-injected), control routes under /__stub (none of that), /openapi.json,
 * and the authorization endpoint /oauth/authorize (docs/platform.md F44).
 * Every response carries x-trace-id (docs/platform.md F2).
 */

export function platformRouter(): Router {
  return new Router().add(
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
  );
}

export function controlRouter(): Router {
  return new Router().add(
    ...controlWorldRoutes,
    ...controlObserveRoutes,
    ...controlConfigRoutes,
    ...controlOAuthRoutes,
  );
}

export interface StubServer {
  server: Server;
  /** Aborted on close: pending latency waits end at once. */
  stopping: AbortController;
}

export function createStubServer(state: StubState): StubServer {
  const platform = platformRouter();
  const control = controlRouter();
  let openapi: string | null = null;
  const stopping = new AbortController();
  let traceSeq = 0;
  const tracePrefix = randomBytes(4).toString('hex');

  const server = createServer((req, res) => {
    res.setHeader(TRACE_ID_HEADER, `${tracePrefix}-${(++traceSeq).toString(16)}`);
    const url = new URL(req.url ?? '/', 'http://stub.local');
    const path = url.pathname;
    let work: Promise<void>;
    if (path === '/openapi.json' || path === `${API_PREFIX}/openapi.json`) {
      openapi ??= JSON.stringify(buildOpenApi(platform.all));
      sendJson(res, 200, openapi);
      return;
    }
    if (path === '/__stub' || path.startsWith('/__stub/'))
      work = handleControl(state, control, req, res, url);
    else if (path === AUTHORIZE_PATH) work = handleAuthorize(state, req, res, url);
    else if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) {
      work = handlePlatform(state, platform, req, res, url, stopping.signal);
    } else {
      sendJson(res, 404, errorBody('DEVELOPER_7404', `no route ${path}`));
      return;
    }
    work.catch((err: unknown) => {
      const error = toApiError(err, state);
      sendJson(res, error.status, error.toBody());
    });
  });
  server.keepAliveTimeout = 5_000;
  return { server, stopping };
}

async function handleControl(
  state: StubState,
  router: Router,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase() as Method;
  const { match, pathExists } = router.match(method, url.pathname);
  const raw = await readRawBody(req);
  if (!match) {
    const status = pathExists ? 405 : 404;
    sendJson(res, status, errorBody('DEVELOPER_7404', `no control route ${method} ${url.pathname}`));
    return;
  }
  const parsed = parseBody(raw, req.headers['content-type'], false);
  const reply = await match.def.handler({
    req,
    method,
    path: url.pathname,
    params: match.params,
    query: queryObject(url.searchParams),
    body: parsed.value,
    bodyKind: parsed.kind,
    headers: req.headers,
    state,
    auth: null,
    ip: req.socket.remoteAddress ?? 'unknown',
    origin: `http://${req.headers.host ?? 'localhost'}`,
    now: state.now(),
  });
  sendJson(res, reply.status, reply.body, reply.headers);
}
