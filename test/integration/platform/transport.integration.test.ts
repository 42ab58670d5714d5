import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../../src/platform/client.ts';
import { NetworkError, PlatformError } from '../../../src/platform/errors.ts';
import { useTestRedis } from '../../support/redis.ts';
import { capturingLogger } from './support/capture-log.ts';

/**
 * The transport against a hand-driven HTTP server, for the failures the stub cannot stage
 * exactly: a response that never comes (client timeout), a reset before any answer, a refused
 * connection, a page link to another origin.
 */
const redis = useTestRedis();
const captured = capturingLogger();
const TOKEN = 'svc_business_tok_transporttesttoken123';
const SECRET = 'transport-secret-0123456789';

interface Seen {
  method: string;
  url: string;
  body: string;
  authorization: string | undefined;
}
type Handler = (req: IncomingMessage, res: ServerResponse, body: string, n: number) => void;

let server: Server;
let origin: string;
let handler: Handler;
const seen: Seen[] = [];
const sockets = new Set<Socket>();
const clients: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url === '/developer/v1/token') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-trace-id': 'tr-token' });
        res.end(JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', expires_in: 3600, scope: '' }));
        return;
      }
      seen.push({ method: req.method!, url: req.url!, body, authorization: req.headers.authorization });
      handler(req, res, body, seen.length);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

beforeEach(() => {
  seen.length = 0;
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

function client(baseUrl = `${origin}/developer/v1`, requestTimeoutMs = 300) {
  const c = createPlatformClient({
    baseUrl,
    clientId: 'transport-client',
    clientSecret: SECRET,
    scopes: 'accounting:write',
    redis: redis.connect(),
    keyPrefix: redis.prefix,
    limiter: { egressId: `transport-${clients.length}` },
    retry: { maxAttempts: 4, baseMs: 10, capMs: 50 },
    requestTimeoutMs,
    log: captured.log,
  });
  clients.push(c);
  return c;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-trace-id': `tr-${status}`, ...headers });
  res.end(JSON.stringify(body));
};

const syncBody = {
  idempotency_key: 'transport-key-1',
  sync_type: 'TRANSACTION_SYNC' as const,
  successful_syncs: [{ id: 'txn-1', reference_id: 'JE-1' }],
};

describe('transport (docs/platform.md G8)', () => {
  it('retries a response that never came (client timeout) with the same body and key', async () => {
    handler = (_req, res, _body, n) => {
      if (n === 1) return; // never answered: the client's timeout fires
      json(res, 201, { sync_id: 's-1', results: [{ id: 'txn-1', status: 'SYNCED' }] });
    };
    const outcome = await client().syncs.postResults(syncBody);
    expect(outcome).toMatchObject({ alreadyApplied: false, answer: { sync_id: 's-1' } });
    expect(seen).toHaveLength(2);
    expect(seen[1]!.body).toBe(seen[0]!.body);
    expect(JSON.parse(seen[1]!.body).idempotency_key).toBe('transport-key-1');
  });

  it('F15: a reset after sending, then 7005, is "already applied" with no answer', async () => {
    handler = (req, res, _body, n) => {
      if (n === 1) return req.socket.destroy();
      json(res, 400, {
        error_v2: {
          error_code: 'DEVELOPER_7005',
          message: 'idempotency key already used',
          additional_info: {},
        },
      });
    };
    const outcome = await client().syncs.postResults({ ...syncBody, idempotency_key: 'transport-key-2' });
    expect(outcome).toEqual({ alreadyApplied: true, answer: null });
    expect(seen).toHaveLength(2);
  });

  it('gives up after maxAttempts with the last error, retryable and carrying the trace id', async () => {
    handler = (_req, res) => json(res, 503, { error_v2: { error_code: 'DEVELOPER_7500', message: 'busy' } });
    const error = await client()
      .request({ method: 'GET', path: '/entities' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 503, retryable: true, traceId: 'tr-503' });
    expect(seen).toHaveLength(4);
  });

  it("F3: only the platform's own answers date a permit: a 5xx (a gateway may answer before the platform counted the request) does not", async () => {
    handler = (_req, res, _body, n) =>
      n === 1
        ? json(res, 503, { error_v2: { error_code: 'DEVELOPER_7500', message: 'busy' } })
        : json(res, 200, { data: [], page: { next: null } });
    const c = client(`${origin}/developer/v1`, 2_000);
    await c.request({ method: 'GET', path: '/entities' });
    expect(seen).toHaveLength(2);
    // The token's answer and the 200's date their permits (earlier, or later on a slow round
    // trip); the 503's does not. The dating is counted once the log changed.
    const dated = () => c.stats().limiter.answerDated + c.stats().limiter.answerDatedLater;
    await expect.poll(dated).toBe(2);
    // The 503's permit is given up instead: dated when it came, so the pad covers its way.
    await expect.poll(() => c.stats().limiter.unansweredHeld).toBe(1);
    expect(c.stats().limiter).toMatchObject({ permitsGranted: 3, unansweredOut: 0 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(dated()).toBe(2);
  });

  it('F3: a request that times out is given up in the window: dated when the timeout fired, and held no more', async () => {
    handler = (_req, res, _body, n) => {
      if (n === 1) return; // never answered: the client's timeout fires
      json(res, 200, { data: [], page: { next: null } });
    };
    const c = client(`${origin}/developer/v1`, 700);
    await c.request({ method: 'GET', path: '/entities' });
    expect(seen).toHaveLength(2);
    // The timed-out attempt's entry moved once, when it was given up (before the 5 s hold); the
    // token and the repeat were answered; nothing is left out to hold for ever.
    await expect.poll(() => c.stats().limiter.unansweredHeld).toBe(1);
    expect(c.stats().limiter).toMatchObject({ permitsGranted: 3, unansweredOut: 0 });
  });

  it('a 4xx other than 429 is permanent: one attempt', async () => {
    handler = (_req, res) =>
      json(res, 422, {
        error_v2: { error_code: 'DEVELOPER_7001', message: 'bad', additional_info: { fields: ['x'] } },
      });
    await expect(client().request({ method: 'GET', path: '/entities' })).rejects.toMatchObject({
      status: 422,
      code: 'DEVELOPER_7001',
      additionalInfo: { fields: ['x'] },
    });
    expect(seen).toHaveLength(1);
  });

  it('a refused connection is a NetworkError after the attempts, sent nowhere', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await client(`http://127.0.0.1:${port}/developer/v1`)
      .request({ method: 'GET', path: '/entities' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/ECONNREFUSED/);
  });

  it('F3: a 429 pauses a second client on the same egress for Retry-After', async () => {
    let limited = false;
    handler = (req, res) => {
      if (req.url === '/developer/v1/entities' && !limited) {
        limited = true;
        const body = { error_v2: { error_code: 'DEVELOPER_7429', message: 'slow down' } };
        return json(res, 429, body, { 'retry-after': '1' });
      }
      json(res, 200, { data: [], page: { next: null } });
    };
    const shared = { egressId: 'shared-429' };
    const a = createPlatformClient({
      baseUrl: `${origin}/developer/v1`,
      clientId: 'a',
      clientSecret: SECRET,
      scopes: [],
      redis: redis.connect(),
      keyPrefix: redis.prefix,
      limiter: shared,
      retry: { baseMs: 10, capMs: 50 },
      log: captured.log,
    });
    const b = createPlatformClient({
      baseUrl: `${origin}/developer/v1`,
      clientId: 'b',
      clientSecret: SECRET,
      scopes: [],
      redis: redis.url,
      keyPrefix: redis.prefix,
      limiter: shared,
      log: captured.log,
    });
    clients.push(a, b);
    await b.request({ method: 'GET', path: '/warm-up' });
    seen.length = 0;
    const first = a.request({ method: 'GET', path: '/entities' });
    await expect.poll(() => a.stats().limiter.pauses).toBe(1);
    const started = Date.now();
    await b.request({ method: 'GET', path: '/entities' });
    // b had no 429 of its own: it waited for the pause a's 429 stored in Redis.
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    await first;
    expect(a.stats().limiter).toMatchObject({ rateLimited: 1, pauses: 1 });
    expect(b.stats().limiter.rateLimited).toBe(0);
    expect(seen).toHaveLength(3);
    expect(b.stats().limiter.permitsGranted).toBe(3);
  });

  it('F4: follows page.next, but never sends the token to another origin', async () => {
    handler = (req, res) => {
      const url = new URL(req.url!, origin);
      if (!url.searchParams.get('start')) {
        return json(res, 200, {
          data: [{ id: 'e1', name: 'One', currency: 'USD', payment_accounts: [], bank_accounts: [] }],
          page: { next: 'http://elsewhere.invalid/developer/v1/entities?page_size=100&start=e1' },
        });
      }
      json(res, 200, {
        data: [{ id: 'e2', name: 'Two', currency: 'USD', payment_accounts: [], bank_accounts: [] }],
        page: { next: null },
      });
    };
    const { values } = await client().entities.list().collect();
    expect(values.map((e) => e.id)).toEqual(['e1', 'e2']);
    expect(seen.map((s) => s.url)).toEqual([
      '/developer/v1/entities?page_size=100',
      '/developer/v1/entities?page_size=100&start=e1',
    ]);
    expect(seen.every((s) => s.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('nothing secret reaches the log', () => {
    const text = captured.text();
    expect(text).toContain('retrying');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(TOKEN);
  });
});
