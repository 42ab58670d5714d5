import { createHash, randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import type { GrantAnswer } from '../../../src/platform/index.ts';
import { loadGrant, TokenCipher } from '../../../src/platform/index.ts';
import type { Queues } from '../../../src/queue/index.ts';
import { oauthCallbackRoute, oauthStartRoute } from '../../../src/server/oauth-routes.ts';
import { buildServer } from '../../../src/server/server.ts';
import { useTestDatabase } from '../../support/db.ts';

/**
 * The worker's consent routes (docs/platform.md F44, F45): /oauth/start sends the browser to the
 * consent page with a fresh state and a PKCE S256 challenge; /oauth/callback accepts only a state
 * the worker started, once, exchanges the code with the matching verifier and stores the grant.
 */
const db = useTestDatabase();
const cipher = new TokenCipher(randomBytes(32));
const CLIENT = 'routes-client';
const REDIRECT = 'https://worker.example.com/oauth/callback';

function consentDeps() {
  const exchanged: { code: string; redirectUri: string; codeVerifier: string }[] = [];
  const deps = {
    settings: {
      sql: db.sql,
      cipher,
      clientId: CLIENT,
      redirectUri: REDIRECT,
      authorizeUrl: 'https://platform.example.com/oauth/authorize',
      scopes: 'accounting:read accounting:write',
    },
    exchange: async (c: {
      code: string;
      redirectUri: string;
      codeVerifier: string;
    }): Promise<GrantAnswer> => {
      exchanged.push(c);
      return {
        accessToken: 'svc_business_tok_access_routes',
        refreshToken: 'svc_business_tok_refresh_routes',
        expiresInS: 3600,
        refreshExpiresInS: null,
        scope: 'accounting:read accounting:write offline_access',
      };
    },
    log: silentLogger,
  };
  return { deps, exchanged };
}

function worker() {
  const { deps, exchanged } = consentDeps();
  const app = Fastify();
  app.register(oauthStartRoute(deps));
  app.register(oauthCallbackRoute(deps));
  return { app, exchanged };
}

describe('consent routes on the worker (docs/platform.md F44, F45)', () => {
  it('F44: start redirects to the consent page with state, S256 challenge and offline_access; the callback stores the grant once', async () => {
    const { app, exchanged } = worker();
    const start = await app.inject({ url: '/oauth/start' });
    expect(start.statusCode).toBe(302);
    const consent = new URL(start.headers.location as string);
    expect(consent.origin + consent.pathname).toBe('https://platform.example.com/oauth/authorize');
    const q = consent.searchParams;
    expect(q.get('client_id')).toBe(CLIENT);
    expect(q.get('redirect_uri')).toBe(REDIRECT);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('scope')?.split(' ')).toContain('offline_access');
    const state = q.get('state')!;

    const back = await app.inject({ url: `/oauth/callback?state=${state}&code=the-code-123` });
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain('Connected');
    expect(back.body).not.toContain('the-code-123');
    expect(back.body).not.toContain('svc_business_tok_');
    // F45: the verifier sent is the one whose S256 hash the consent page was given.
    expect(exchanged).toHaveLength(1);
    const verifier = exchanged[0]!.codeVerifier;
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(q.get('code_challenge'));
    expect(exchanged[0]!.redirectUri).toBe(REDIRECT);
    const grant = await loadGrant(db.sql, CLIENT);
    expect(cipher.decrypt(grant!.refreshToken)).toBe('svc_business_tok_refresh_routes');

    // A state is single-use: a replayed callback stores nothing more.
    const again = await app.inject({ url: `/oauth/callback?state=${state}&code=the-code-123` });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('Not connected');
    expect(exchanged).toHaveLength(1);
    await app.close();
  });

  it('F44: a callback with a state the worker never started, or a declined consent, stores nothing and says why', async () => {
    const { app, exchanged } = worker();
    const forged = await app.inject({ url: '/oauth/callback?state=not-ours&code=x' });
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toMatch(/did not start/);

    const start = await app.inject({ url: '/oauth/start' });
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const declined = await app.inject({ url: `/oauth/callback?state=${state}&error=access_denied` });
    expect(declined.statusCode).toBe(400);
    expect(declined.body).toMatch(/declined/);
    expect(exchanged).toHaveLength(0);
    await app.close();
  });
});

describe('signing in on the way to the consent (README "Running it for a customer")', () => {
  it('F44: an operator sent to sign in from /oauth/start lands back on /oauth/start, which redirects to the consent page', async () => {
    const token = 'routes-operator-token-0123456789';
    const { deps } = consentDeps();
    const app = buildServer(
      {
        sql: db.sql,
        redis: { ping: async () => 'PONG' as const },
        queues: { all: () => [] } as unknown as Queues,
        connectionId: 'conn-routes',
        log: silentLogger,
        secrets: async () => ['whsec_routes'],
        operator: { token, dashboard: false },
        consent: deps,
      },
      '0.0.0.0',
    );
    const unsigned = await app.inject({ url: '/oauth/start', headers: { accept: 'text/html' } });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.body).toContain('name="next" value="/oauth/start"');
    const login = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token, next: '/oauth/start' }).toString(),
    });
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe('/oauth/start');
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const start = await app.inject({ url: '/oauth/start', headers: { cookie } });
    expect(start.statusCode).toBe(302);
    expect(String(start.headers.location)).toMatch(/^https:\/\/platform\.example\.com\/oauth\/authorize\?/);
    await app.close();
  });
});
