import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '../../../../src/log.ts';
import { createPlatformClient, type PlatformClientOptions } from '../../../../src/platform/client.ts';
import type { TestRedis } from '../../../support/redis.ts';

/** A request as the answer server saw it; `path` is relative to /developer/v1. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: string;
}

/** What to answer: a status (default 200) and a JSON body, or a raw text body. */
export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
  raw?: string;
}

export type Answerer = (request: SeenRequest) => ScriptedAnswer;

export interface AnswerServer {
  /** The base URL a client is built with (ends in /developer/v1). */
  readonly apiUrl: string;
  /** Every request so far, in arrival order. */
  readonly seen: SeenRequest[];
  /** Replaced freely between calls; each request is answered by the current one. */
  answer: Answerer;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 answering whatever a test scripts, for answers the stub never
 * gives (the published schemas allow more than the stub sends: docs/platform.md F36–F40).
 */
export async function startAnswerServer(answer: Answerer): Promise<AnswerServer> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const state = { answer };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: SeenRequest = {
        method: req.method ?? 'GET',
        path: url.pathname.replace(/^\/developer\/v1/, ''),
        query: url.searchParams,
        authorization: req.headers.authorization,
        body,
      };
      seen.push(request);
      let scripted: ScriptedAnswer;
      try {
        scripted = state.answer(request);
      } catch (error) {
        scripted = { status: 599, raw: `answerer failed: ${String(error)}` };
      }
      const text = scripted.raw ?? JSON.stringify(scripted.body ?? null);
      res.writeHead(scripted.status ?? 200, {
        'content-type': 'application/json',
        'x-trace-id': `tr-${seen.length}`,
      });
      res.end(text);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    apiUrl: `http://127.0.0.1:${port}/developer/v1`,
    seen,
    get answer() {
      return state.answer;
    },
    set answer(next: Answerer) {
      state.answer = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A client of the answer server: fast retries, a short timeout, its own rate budget. */
export function answerServerClient(
  server: AnswerServer,
  redis: TestRedis,
  log: Logger,
  overrides: Partial<PlatformClientOptions> = {},
) {
  return createPlatformClient({
    baseUrl: server.apiUrl,
    clientId: 'answer-client',
    clientSecret: `secret-${randomBytes(8).toString('hex')}`,
    scopes: [],
    redis: redis.connect(),
    keyPrefix: redis.prefix,
    limiter: { egressId: `egress-${randomBytes(4).toString('hex')}`, windowPadMs: 100 },
    retry: { maxAttempts: 2, baseMs: 5, capMs: 20 },
    requestTimeoutMs: 2_000,
    log,
    ...overrides,
  });
}

/** Token answer number `n` (F1); `expiresIn: 'absent'` leaves the key out (F40). */
export function tokenAnswer(n: number, expiresIn: number | 'absent' = 3600): ScriptedAnswer {
  return {
    body: {
      access_token: `svc_business_tok_answer${n}`,
      token_type: 'Bearer',
      ...(expiresIn === 'absent' ? {} : { expires_in: expiresIn }),
    },
  };
}
