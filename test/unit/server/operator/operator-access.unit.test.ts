import type { Sql } from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import { createMetrics } from '../../../../src/operations/index.ts';
import type { Queues } from '../../../../src/queue/index.ts';
import { safeNext } from '../../../../src/server/operator/login-route.ts';
import {
  hostHeaderIsLoopback,
  isLoopback,
  OPERATOR_COOKIE,
  operatorAccess,
  SESSION_TTL_S,
} from '../../../../src/server/operator/operator-access.ts';
import { buildServer, type ServerDeps, startServer } from '../../../../src/server/server.ts';

/** Access rules over inject(): no database or Redis is reached before a refusal. */
const TOKEN = 'unit-operator-token-0123456789';
const fakeSql = ((..._args: unknown[]) => Promise.resolve({ count: 1 })) as unknown as Sql;
const noQueues = { all: () => [] } as unknown as Queues;

function deps(operator: ServerDeps['operator']): ServerDeps {
  return {
    sql: fakeSql,
    redis: { ping: async () => 'PONG' as const },
    queues: noQueues,
    connectionId: 'conn-1',
    log: silentLogger,
    secrets: async () => ['whsec_unit'],
    operator,
  };
}

const metrics = createMetrics({ processMetrics: false });
const guarded = buildServer(deps({ token: TOKEN, metrics }), '0.0.0.0');
const openLoopback = buildServer(deps({ metrics }), '127.0.0.1');
const unknownHost = buildServer(deps({ metrics }));
afterAll(() => Promise.all([guarded.close(), openLoopback.close(), unknownHost.close()]));

const get = (app = guarded, url = '/metrics', headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

describe('operator routes with OPERATOR_TOKEN', () => {
  it('no token, a wrong one, another scheme or the raw token as cookie → 401; the bearer token → 200', async () => {
    expect((await get()).statusCode).toBe(401);
    expect((await get()).headers['www-authenticate']).toBe('Bearer realm="ledgersync"');
    expect(
      (await get(guarded, '/metrics', { authorization: 'Bearer wrong-token-0123456789' })).statusCode,
    ).toBe(401);
    expect((await get(guarded, '/metrics', { authorization: `Basic ${TOKEN}` })).statusCode).toBe(401);
    expect((await get(guarded, '/metrics', { cookie: `ledgersync_operator=${TOKEN}` })).statusCode).toBe(401);
    const ok = await get(guarded, '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('# TYPE ledgersync_platform_requests_total counter');
    expect((await get(guarded, '/status')).statusCode).toBe(401);
    expect((await get(guarded, '/status.json')).statusCode).toBe(401);
  });

  it('Bull Board: its page and API need the token', async () => {
    expect((await get(guarded, '/admin/queues')).statusCode).toBe(401);
    expect((await get(guarded, '/admin/queues/api/queues')).statusCode).toBe(401);
    const page = await get(guarded, '/admin/queues', { authorization: `Bearer ${TOKEN}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ledgersync queues');
    const api = await get(guarded, '/admin/queues/api/queues', { authorization: `Bearer ${TOKEN}` });
    expect(api.statusCode).toBe(200);
  });

  it('the sign-in form (POST /login) sets a cookie derived from the token, and redirects', async () => {
    const login = await guarded.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: TOKEN, next: '/metrics' }).toString(),
    });
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe('/metrics');
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).not.toContain(TOKEN);
    expect((await get(guarded, '/metrics', { cookie: cookie.split(';')[0]! })).statusCode).toBe(200);
    const wrong = await guarded.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'token=nope&next=/status',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(wrong.body).toContain('That is not the operator token.');
  });

  it('any Host is served with the token: the token, not the name, guards this mode', async () => {
    const host = 'ledgersync.example.com:8443';
    expect((await get(guarded, '/metrics', { host })).statusCode).toBe(401);
    expect((await get(guarded, '/metrics', { host, authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
    const api = await get(guarded, '/admin/queues/api/queues', { host, authorization: `Bearer ${TOKEN}` });
    expect(api.statusCode).toBe(200);
  });

  it('health checks and the webhook route stay open', async () => {
    expect((await get(guarded, '/healthz')).statusCode).toBe(200);
    const challenge = await guarded.inject({
      method: 'POST',
      url: '/webhooks',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ challenge: 'c-1' }),
    });
    expect(challenge.statusCode).toBe(200);
    expect(challenge.json()).toEqual({ status: 'challenge received' });
  });
});

describe('operator routes without a token', () => {
  it('on loopback they are open', async () => {
    expect((await get(openLoopback)).statusCode).toBe(200);
    const login = await get(openLoopback, '/login?next=/admin/queues');
    expect(login.statusCode).toBe(303);
    expect(login.headers['set-cookie']).toBeUndefined();
  });

  it('a request naming another host (DNS rebinding) gets 421 and no operator data', async () => {
    for (const url of ['/status', '/status.json', '/metrics', '/admin/queues', '/admin/queues/api/queues']) {
      for (const host of [
        'evil.example:8080',
        'evil.example',
        '127.0.0.1.evil.example',
        'localhost.evil:80',
      ]) {
        const response = await get(openLoopback, url, { host });
        expect(response.statusCode, `${host} ${url}`).toBe(421);
        expect(response.headers['content-type'], url).toContain('text/plain');
        expect(response.body, url).toMatch(/^Misdirected request: /);
        expect(response.body, url).not.toContain('conn-1');
        expect(response.body, url).not.toContain('ledgersync_');
      }
    }
    const retry = await openLoopback.inject({
      method: 'PUT',
      url: '/admin/queues/api/queues/object-sync/retry/failed',
      headers: { host: 'evil.example:8080' },
    });
    expect(retry.statusCode).toBe(421);
  });

  it('a request naming a loopback address, with or without a port, is served', async () => {
    for (const host of [
      '127.0.0.1:8080',
      '127.0.0.1',
      '127.4.5.6:80',
      'localhost:8080',
      'LocalHost',
      '[::1]:8080',
      '[::1]',
    ]) {
      expect((await get(openLoopback, '/metrics', { host })).statusCode, host).toBe(200);
      expect((await get(openLoopback, '/admin/queues/api/queues', { host })).statusCode, host).toBe(200);
    }
  });

  it('health checks and the webhook route answer whatever the Host', async () => {
    expect((await get(openLoopback, '/healthz', { host: 'worker.internal:8080' })).statusCode).toBe(200);
    expect((await get(openLoopback, '/readyz', { host: 'worker.internal:8080' })).statusCode).toBe(200);
    const challenge = await openLoopback.inject({
      method: 'POST',
      url: '/webhooks',
      headers: { 'content-type': 'application/json', host: 'hooks.example.com' },
      payload: JSON.stringify({ challenge: 'c-2' }),
    });
    expect(challenge.statusCode).toBe(200);
    expect(challenge.json()).toEqual({ status: 'challenge received' });
  });

  it('where the listening address is unknown or beyond loopback, nothing is served', async () => {
    expect((await get(unknownHost)).statusCode).toBe(401);
    expect(
      (await get(unknownHost, '/metrics', { authorization: 'Bearer anything-at-all-000' })).statusCode,
    ).toBe(401);
    expect((await get(unknownHost, '/login?token=anything-at-all-000')).statusCode).toBe(401);
    await expect(startServer(deps({}), { host: '0.0.0.0', port: 0 })).rejects.toThrow(
      /OPERATOR_TOKEN is required/,
    );
  });
});

describe('helpers', () => {
  it('isLoopback', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', '', undefined, '127.0.0.1.evil']) {
      expect(isLoopback(host), String(host)).toBe(false);
    }
  });

  it('hostHeaderIsLoopback: 127.x.y.z, localhost and [::1], each with an optional port', () => {
    for (const host of [
      '127.0.0.1',
      '127.0.0.1:8080',
      '127.9.9.9:1',
      'localhost',
      'localhost:3000',
      'LOCALHOST:80',
      '[::1]',
      '[::1]:8080',
    ])
      expect(hostHeaderIsLoopback(host), host).toBe(true);
    for (const host of [
      'evil.example',
      'evil.example:8080',
      '127.0.0.1.evil.example',
      'localhost.evil.example:80',
      'evil.localhost.example',
      '[::2]:8080',
      '[::1].evil:80',
      '::1',
      'localhost:80:80',
      'localhost:',
      '10.0.0.5:8080',
      '0.0.0.0:8080',
      '',
      undefined,
    ])
      expect(hostHeaderIsLoopback(host), String(host)).toBe(false);
  });

  it('safeNext only sends the browser to this server operator pages', () => {
    expect(safeNext('/admin/queues/queue/object-sync?status=failed')).toBe(
      '/admin/queues/queue/object-sync?status=failed',
    );
    expect(safeNext('/status.json')).toBe('/status.json');
    for (const bad of [
      '//evil.example',
      'https://evil.example/status',
      '/\\evil',
      '/webhooks',
      '/login',
      42,
      undefined,
    ]) {
      expect(safeNext(bad), String(bad)).toBe('/status');
    }
  });
});

describe('the operator sign-in expires', () => {
  const request = (cookie: string) => ({ headers: { cookie: `${OPERATOR_COOKIE}=${cookie}` } }) as never;

  it('a session cookie is accepted until its time, refused after it, and cannot be extended by hand', () => {
    let now = Date.parse('2026-11-23T08:00:00Z');
    const access = operatorAccess(TOKEN, '0.0.0.0', () => now);
    const cookie = access.sessionValue();
    expect(access.credentialOf(request(cookie))).toBe('cookie');
    now += (SESSION_TTL_S - 60) * 1000;
    expect(access.credentialOf(request(cookie))).toBe('cookie');
    now += 120 * 1000;
    expect(access.credentialOf(request(cookie))).toBeNull();
    // Moving the expiry forward breaks the signature.
    const [, signature] = cookie.split('.');
    expect(access.credentialOf(request(`${Math.floor(now / 1000) + 3600}.${signature}`))).toBeNull();
    // A cookie made with another token is refused.
    const other = operatorAccess('another-token-0123456789', '0.0.0.0', () => now).sessionValue();
    expect(access.credentialOf(request(other))).toBeNull();
  });
});
