import { createHmac } from 'node:crypto';
import type { Sql } from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import type { Queues } from '../../../../src/queue/index.ts';
import { buildServer, type ServerDeps } from '../../../../src/server/server.ts';

/** The receiver's refusals happen before any database or queue work: no I/O needed to show them. */

const SECRET = 'whsec_unit_test_secret_0123456789';
const sign = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');

const stored: unknown[][] = [];
const fakeSql = ((_strings: TemplateStringsArray, ...values: unknown[]) => {
  stored.push(values);
  return Promise.resolve({ count: 1 });
}) as unknown as Sql;
const noQueues = { all: () => [] } as unknown as Queues;

function server(overrides: Partial<ServerDeps> = {}) {
  return buildServer({
    sql: fakeSql,
    redis: { ping: async () => 'PONG' },
    queues: noQueues,
    connectionId: 'conn-1',
    log: silentLogger,
    secrets: async () => [SECRET],
    maxBodyBytes: 1024,
    // No database here to read the receive time from: this process's clock stands in.
    now: Date.now,
    ...overrides,
  });
}

const app = server();
afterAll(() => app.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/webhooks',
    payload: body,
    headers: { 'content-type': 'application/json', ...headers },
  });

const event = (type: string, createdAt = new Date().toISOString()) =>
  JSON.stringify({ id: `evt-${type}`, type, created_at: createdAt, business_id: 'b1', object: { id: 'o1' } });

describe('webhook receiver refusals (docs/platform.md F21)', () => {
  it('401 without a signature, with a wrong one, or one made with another secret', async () => {
    const body = event('bills.created');
    expect((await post(body)).statusCode).toBe(401);
    expect((await post(body, { 'x-svc-webhook-signature': 'nothex' })).statusCode).toBe(401);
    expect(
      (await post(body, { 'x-svc-webhook-signature': sign(body, 'whsec_someone_else_000000') })).statusCode,
    ).toBe(401);
    expect((await post(`${body} `, { 'x-svc-webhook-signature': sign(body) })).statusCode).toBe(401);
  });

  it('the signature is checked over the raw bytes: whitespace the JSON parser ignores still counts', async () => {
    const body = event('bills.created').replace('{', '{ ');
    const ok = await post(body, { 'x-svc-webhook-signature': sign(body) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ignored', reason: 'no work for bills.created' });
  });

  it('413 for a body over the limit, before anything else', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(2_000) });
    const res = await post(body, { 'x-svc-webhook-signature': sign(body) });
    expect(res.statusCode).toBe(413);
  });

  it('400 for signed malformed JSON and for a signed body that is not an event envelope', async () => {
    const broken = '{"id": "evt-1", "type": ';
    expect((await post(broken, { 'x-svc-webhook-signature': sign(broken) })).statusCode).toBe(400);
    const notEvent = JSON.stringify({ hello: 'world' });
    expect((await post(notEvent, { 'x-svc-webhook-signature': sign(notEvent) })).statusCode).toBe(400);
  });

  it('an event older than a day is acknowledged and not acted on (replay of an old delivery)', async () => {
    const old = event('bills.paid', new Date(Date.now() - 25 * 3_600_000).toISOString());
    const res = await post(old, { 'x-svc-webhook-signature': sign(old) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ignored', reason: 'event too old' });
  });

  it('F20: a {challenge} body is stored for the registration code (its secret may not be known yet)', async () => {
    stored.length = 0;
    const body = JSON.stringify({ challenge: 'abc123' });
    const res = await post(body, { 'x-svc-webhook-signature': sign(body, 'whsec_not_known_yet_00000') });
    expect(res.statusCode).toBe(200);
    const insert = stored.find((values) => values.includes('abc123'));
    expect(insert).toEqual(expect.arrayContaining(['abc123', body]));
  });

  it('503 (the platform retries) when the secrets cannot be read or the answer would take too long', async () => {
    const down = server({ secrets: async () => Promise.reject(new Error('database unreachable')) });
    // Secrets that never arrive: the answer can only come from the deadline.
    let secretReads = 0;
    const slow = server({
      secrets: () => {
        secretReads++;
        return new Promise(() => undefined);
      },
      answerWithinMs: 50,
    });
    const body = event('bills.created');
    const headers = { 'content-type': 'application/json', 'x-svc-webhook-signature': sign(body) };
    const failed = await down.inject({ method: 'POST', url: '/webhooks', payload: body, headers });
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toEqual({ error: 'temporarily unavailable, retry later' });
    const late = await slow.inject({ method: 'POST', url: '/webhooks', payload: body, headers });
    expect(late.statusCode).toBe(503);
    expect(late.json()).toEqual({ error: 'busy, retry later' });
    // Answered while the secrets read was still pending, not after it.
    expect(secretReads).toBe(1);
    await down.close();
    await slow.close();
  });
});

describe('health', () => {
  it('/healthz says the process is up; /readyz says whether Postgres and Redis answer', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const noRedis = server({ redis: { ping: async () => Promise.reject(new Error('ECONNREFUSED')) } });
    const res = await noRedis.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ postgres: 'ok', redis: 'unreachable' });
    await noRedis.close();
  });
});
