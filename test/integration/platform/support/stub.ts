import { randomBytes } from 'node:crypto';
import { ALL_STUB_SCOPES, type RunningStub, type StubOptions, startStub } from '@ledgersync/stub';
import type { Logger } from '../../../../src/log.ts';
import { createPlatformClient, type PlatformClientOptions } from '../../../../src/platform/client.ts';
import type { TestRedis } from '../../../support/redis.ts';

/** Calls to the stub's control routes (docs/stub.md): no token, not rate limited. */
export async function control<T = unknown>(
  stub: RunningStub,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${stub.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** A new OAuth client on the stub with every scope; the secret is random so a leak is findable. */
export async function addClient(stub: RunningStub, tokenTtlS?: number): Promise<Credentials> {
  const credentials = {
    clientId: `client-${randomBytes(4).toString('hex')}`,
    clientSecret: `secret-${randomBytes(16).toString('hex')}`,
  };
  await control(stub, 'POST', '/__stub/clients', {
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    scopes: ALL_STUB_SCOPES,
    ...(tokenTtlS ? { token_ttl_s: tokenTtlS } : {}),
  });
  return credentials;
}

export function startTestStub(options: StubOptions = {}): Promise<RunningStub> {
  return startStub({ port: 0, rateLimit: { max: 200, windowMs: 10_000 }, latencyMs: 0, ...options });
}

/** A client for the stub with fast retries, its own egress id (so tests do not share budgets). */
export function testClient(
  stub: RunningStub,
  redis: TestRedis,
  credentials: Credentials,
  log: Logger,
  overrides: Partial<PlatformClientOptions> = {},
) {
  return createPlatformClient({
    baseUrl: stub.apiUrl,
    ...credentials,
    scopes: ALL_STUB_SCOPES,
    redis: redis.connect(),
    keyPrefix: redis.prefix,
    limiter: { egressId: `egress-${randomBytes(4).toString('hex')}`, windowPadMs: 100 },
    retry: { maxAttempts: 6, baseMs: 20, capMs: 200 },
    requestTimeoutMs: 5_000,
    log,
    ...overrides,
  });
}

export interface Arrival {
  seq: number;
  at: number;
  method: string;
  route: string;
  ip: string;
  status: number;
}

export interface Mark {
  object_id: string;
  sync_type: string;
  result: string;
  idempotency_key: string | null;
}

/** Every arrival and sync mark so far (GET /__stub/effects, paged by sequence number). */
export async function effects(stub: RunningStub): Promise<{ arrivals: Arrival[]; marks: Mark[] }> {
  const arrivals: Arrival[] = [];
  const marks: Mark[] = [];
  let arrivalsSince = 0;
  let marksSince = 0;
  for (;;) {
    const page = await control<{
      arrivals: Arrival[];
      marks: Mark[];
      next: { arrivals_since: number; marks_since: number };
      totals: { arrivals: number; marks: number };
    }>(stub, 'GET', `/__stub/effects?arrivals_since=${arrivalsSince}&marks_since=${marksSince}&limit=100000`);
    arrivals.push(...page.arrivals);
    marks.push(...page.marks);
    arrivalsSince = page.next.arrivals_since;
    marksSince = page.next.marks_since;
    if (arrivalsSince >= page.totals.arrivals && marksSince >= page.totals.marks) break;
  }
  return { arrivals, marks };
}
