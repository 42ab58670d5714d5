import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../../../src/platform/schemas/common.ts';
import { ApiError, errorBody } from './core/errors.ts';
import { parseBody, queryObject, sendJson, sleep, sourceIp } from './core/http.ts';
import type { Method, RouteContext } from './core/route.ts';
import type { RouteMatch } from './core/route-table.ts';
import type { FaultDecision } from './faults.ts';
import { cutUploadAnswer } from './rules/upload-answers.ts';
import { type StubState, sweepSyncWindow } from './state.ts';

/**
 * One platform request under /developer/v1, as fastify hands it over (its route found by path,
 * or none), in the order the live service applies its rules: count the arrival and
 * check the per-IP rate limit (F3), apply injected faults and latency (a request past the timeout
 * answers 504, F2), authenticate (F1), parse the body (7011; a write without any body is 7011
 * too, docs/platform.md F29), check the scope, run the handler, then answer, or apply and drop
 * the connection when a fault says so.
 */

/** Resolves when the client closes the socket or the stub stops (whichever comes first). */
function untilClosed(arrival: Arrival, stopping: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stopping.aborted || arrival.socketClosed()) return resolve();
    const done = () => {
      stopping.removeEventListener('abort', done);
      resolve();
    };
    stopping.addEventListener('abort', done, { once: true });
    arrival.onSocketClose(done);
  });
}

interface Arrival {
  seq: number;
  at: number;
  method: Method;
  path: string;
  ip: string;
  match: RouteMatch | null;
  pathExists: boolean;
  answer(status: number, body: unknown, headers?: Record<string, string>): void;
  drop(): void;
  socketClosed(): boolean;
  onSocketClose(listener: () => void): void;
}

/**
 * Runs one platform request: `match` is the route for its method (null: none), `pathExists`
 * whether any route has its path (405 rather than 404).
 */
export async function handlePlatform(
  state: StubState,
  request: FastifyRequest,
  reply: FastifyReply,
  found: { match: RouteMatch | null; pathExists: boolean },
  stopping: AbortSignal,
): Promise<void> {
  const at = state.now();
  const method = request.method.toUpperCase() as Method;
  const url = new URL(request.url, 'http://stub.local');
  const path = url.pathname.slice(API_PREFIX.length) || '/';
  const { match, pathExists } = found;
  const ip = sourceIp(request.raw);
  const seq = state.effects.arrival(at, method, match?.def.path ?? '(unmatched)', ip);
  const socket = request.raw.socket;
  const arrival: Arrival = {
    seq,
    at,
    method,
    path,
    ip,
    match,
    pathExists,
    answer(status, body, headers = {}) {
      state.effects.arrivalStatus(seq, status);
      sendJson(reply, status, body, headers);
    },
    drop() {
      // status 0 in the effects log: no answer was sent.
      state.effects.arrivalStatus(seq, 0);
      reply.hijack();
      socket.destroy();
    },
    socketClosed: () => socket.destroyed,
    onSocketClose(listener) {
      socket.once('close', listener);
    },
  };
  const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const fault = await passGates(state, arrival, reply, stopping);
  if (fault) await runRoute(state, arrival, request, url, raw, fault, stopping);
}

/** Rate limit, faults and latency; returns the fault decision, or null when already answered. */
async function passGates(
  state: StubState,
  arrival: Arrival,
  reply: FastifyReply,
  stopping: AbortSignal,
): Promise<FaultDecision | null> {
  const admitted = state.rateLimiter.admit(arrival.ip, arrival.at);
  if (!admitted.allowed) {
    const info = { retry_after_s: admitted.retryAfterS };
    arrival.answer(429, errorBody('DEVELOPER_7429', 'rate limit exceeded', info), {
      'retry-after': String(admitted.retryAfterS),
    });
    return null;
  }
  sweepSyncWindow(state);
  const fault = state.faults.decide(arrival.method, arrival.match?.def.path ?? '', arrival.path, arrival.at);
  if (fault.action === 'rate_limit') {
    state.rateLimiter.unadmit(arrival.ip);
    arrival.answer(429, errorBody('DEVELOPER_7429', 'rate limit exceeded', { retry_after_s: 1 }), {
      'retry-after': '1',
    });
    return null;
  }
  const latency = state.config.latencyMs + fault.latencyMs;
  const timeout = state.config.requestTimeoutMs;
  if (fault.action === 'timeout' || latency >= timeout) {
    await sleep(Math.min(latency, timeout), stopping);
    arrival.answer(504, errorBody('DEVELOPER_7504', `request ran past ${timeout} ms`));
    return null;
  }
  await sleep(latency, stopping);
  if (fault.action === 'stall') {
    // Never answers: the socket is held until the client gives up or the stub stops.
    reply.hijack();
    await untilClosed(arrival, stopping);
    return null;
  }
  if (fault.action === 'drop_before') {
    arrival.drop();
    return null;
  }
  if (fault.action?.startsWith('error_')) {
    arrival.answer(Number(fault.action.slice(6)), errorBody('DEVELOPER_7500', 'injected server error'));
    return null;
  }
  if (state.faults.isMissing(arrival.method, arrival.match?.def.path ?? '', arrival.path)) {
    arrival.answer(404, errorBody('DEVELOPER_7404', `no route ${arrival.path}`));
    return null;
  }
  if (!arrival.match) {
    const status = arrival.pathExists ? 405 : 404;
    const message = arrival.pathExists ? `method ${arrival.method} not allowed` : `no route ${arrival.path}`;
    arrival.answer(status, errorBody('DEVELOPER_7404', message));
    return null;
  }
  return fault;
}

async function runRoute(
  state: StubState,
  arrival: Arrival,
  request: FastifyRequest,
  url: URL,
  raw: Buffer,
  fault: FaultDecision,
  stopping: AbortSignal,
): Promise<void> {
  const def = arrival.match!.def;
  const req = request.raw;
  const ctx: RouteContext = {
    method: arrival.method,
    path: arrival.path,
    params: arrival.match!.params,
    query: queryObject(url.searchParams),
    body: undefined,
    bodyKind: 'empty',
    headers: req.headers,
    state,
    auth: null,
    ip: arrival.ip,
    origin: `http://${req.headers.host ?? 'localhost'}`,
    now: arrival.at,
  };
  try {
    if (def.scope !== null) ctx.auth = state.auth.authenticate(req.headers.authorization);
    const parsed = parseBody(raw, req.headers['content-type'], def.allowForm === true);
    // docs/platform.md F29: a write with no body at all is 400 DEVELOPER_7011 (`{}` passes).
    if (parsed.kind === 'empty' && arrival.method !== 'GET') {
      throw new ApiError('DEVELOPER_7011', `${arrival.method} needs a JSON body ({} at least)`);
    }
    ctx.body = parsed.value;
    ctx.bodyKind = parsed.kind;
    if (ctx.auth && def.scope !== null) {
      const scope = def.scope;
      state.auth.requireScopes(
        ctx.auth,
        typeof scope === 'function' ? scope(ctx) : Array.isArray(scope) ? scope : [scope],
      );
    }
    const reply = await def.handler(ctx);
    await sleep(fault.latencyAfterCommitMs, stopping);
    // The effect is applied either way; the client never hears of it (an uncertain outcome).
    if (fault.action === 'drop_after_commit') return arrival.drop();
    if (fault.action === 'timeout_after_commit') {
      return arrival.answer(
        504,
        errorBody('DEVELOPER_7504', `request ran past ${state.config.requestTimeoutMs} ms`),
      );
    }
    const mode = state.faults.uploadAnswer(arrival.method, def.path, arrival.path);
    const answer = cutUploadAnswer(def.path, mode, reply);
    arrival.answer(answer.status, answer.body, answer.headers);
  } catch (err) {
    const error = toApiError(err, state);
    arrival.answer(error.status, error.toBody());
  }
}

export function toApiError(err: unknown, state: StubState): ApiError {
  if (err instanceof ApiError) return err;
  state.log.error({ err }, 'stub route failed');
  return new ApiError('DEVELOPER_7500', 'internal error');
}
