import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT } from '../../src/auth.ts';
import type { RunningStub } from '../../src/index.ts';
import { s256 } from '../../src/oauth/codes.ts';
import { type Answer, Api, basicAuth, type Control, harness, type Json } from './helpers.ts';

/**
 * The Authorization Code grant of the stub, over real HTTP (docs/platform.md F44 authorization
 * endpoint, F45 code and refresh grants, F46 refresh rotation).
 */

const REDIRECT_URI = 'http://127.0.0.1:8799/oauth/callback';
const SCOPES = 'accounting:read offline_access';

interface Consent {
  status: number;
  location: URL | null;
  html: string;
}

function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  }
  return fields;
}

describe('stub Authorization Code grant', () => {
  let stub: RunningStub;
  let control: Control;
  beforeEach(async () => {
    // A still clock base: lifetimes are read in whole seconds, moved only by POST /__stub/clock.
    const frozen = Date.now();
    const h = await harness({ now: () => frozen });
    stub = h.stub;
    control = h.control;
  });
  afterEach(async () => {
    await stub.close();
  });

  /** GET the consent page as a browser would, then POST its form with the decision. */
  async function consent(
    verifier: string,
    overrides: Record<string, string> = {},
    decision = 'approve',
  ): Promise<Consent> {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: DEFAULT_CLIENT.client_id,
      redirect_uri: REDIRECT_URI,
      scope: SCOPES,
      state: 'state-123',
      code_challenge: s256(verifier),
      code_challenge_method: 'S256',
      ...overrides,
    });
    const page = await fetch(`${stub.url}/oauth/authorize?${query}`, { redirect: 'manual' });
    const html = await page.text();
    if (page.status !== 200) {
      const location = page.headers.get('location');
      return { status: page.status, location: location ? new URL(location) : null, html };
    }
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain('<form method="post" action="/oauth/authorize">');
    const posted = await fetch(`${stub.url}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...hiddenFields(html), decision }).toString(),
    });
    const location = posted.headers.get('location');
    return {
      status: posted.status,
      location: location ? new URL(location) : null,
      html: await posted.text(),
    };
  }

  async function token(form: Record<string, string>): Promise<Answer<Json> & { text: string }> {
    const res = await fetch(`${stub.apiUrl}/token`, {
      method: 'POST',
      headers: {
        authorization: basicAuth(DEFAULT_CLIENT.client_id, DEFAULT_CLIENT.client_secret),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
    });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Json, headers: res.headers, text };
  }

  /** Consent, then redeem the code: the first pair of a new grant. */
  async function connect(overrides: Record<string, string> = {}): Promise<Json> {
    const verifier = randomBytes(32).toString('base64url');
    const c = await consent(verifier, overrides);
    const answer = await token({
      grant_type: 'authorization_code',
      code: c.location!.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
    expect(answer.status).toBe(200);
    return answer.body;
  }

  const refresh = (refreshToken: string) =>
    token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  const grants = async (): Promise<Json[]> => (await control.get('/oauth/grants')).body;
  const apiWith = (accessToken: string) => new Api(stub, accessToken).get('/accounting/all-connections');

  function expectInvalidGrant(answer: Answer<Json>): void {
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.any(String),
      error_v2: {
        error_code: 'DEVELOPER_7001',
        additional_info: { oauth_error: 'invalid_grant' },
        notes: '',
      },
    });
  }

  it('F44, F45: consent redirects with a code and the state; the code buys a scoped pair', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const c = await consent(verifier);
    expect(c.status).toBe(302);
    expect(`${c.location!.origin}${c.location!.pathname}`).toBe(REDIRECT_URI);
    expect(c.location!.searchParams.get('state')).toBe('state-123');
    const code = c.location!.searchParams.get('code')!;
    const answer = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: SCOPES });
    expect(answer.body.access_token).toMatch(/^svc_business_tok_/);
    expect(answer.body.refresh_token).toMatch(/^svc_business_tok_/);
    expect(answer.body.refresh_token_expires_in).toBeUndefined();
    expect((await apiWith(answer.body.access_token)).status).toBe(200);
    // Only the granted scopes (G7): transactions:read was not asked for.
    const denied = await new Api(stub, answer.body.access_token).get('/transactions');
    expect(denied.status).toBe(403);
    expect(await grants()).toEqual([
      {
        client_id: DEFAULT_CLIENT.client_id,
        grant_id: expect.any(String),
        revoked: false,
        reason: null,
        refreshes: 0,
        reuse_detected: false,
      },
    ]);
    expect(JSON.stringify(await grants())).not.toContain(answer.body.refresh_token);
  });

  it('F45: without offline_access there is no refresh token', async () => {
    const body = await connect({ scope: 'accounting:read' });
    expect(body.refresh_token).toBeUndefined();
  });

  it('F44: deny redirects back with access_denied and the state', async () => {
    const c = await consent('verifier-deny-0123456789012345678901234567890', {}, 'deny');
    expect(c.status).toBe(302);
    expect(c.location!.searchParams.get('error')).toBe('access_denied');
    expect(c.location!.searchParams.get('state')).toBe('state-123');
    expect(c.location!.searchParams.get('code')).toBeNull();
  });

  it('F44: an unregistered, non-HTTPS or unknown-client request is a 400 page, never a redirect', async () => {
    const verifier = 'v'.repeat(43);
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ redirect_uri: 'https://evil.example.com/cb' }, /not registered/],
      [{ redirect_uri: 'http://app.example.com/cb' }, /HTTPS/],
      [{ client_id: 'nobody' }, /unknown client_id/],
      [{ state: '' }, /state is missing/],
    ];
    for (const [overrides, reason] of cases) {
      const c = await consent(verifier, overrides);
      expect(c.status).toBe(400);
      expect(c.location).toBeNull();
      expect(c.html).toMatch(reason);
    }
    // Registered through PUT /__stub/config, the same HTTPS address is accepted.
    await control.put('/config', { oauth: { redirect_uris: ['https://app.example.com/cb'] } });
    const ok = await consent(verifier, { redirect_uri: 'https://app.example.com/cb' });
    expect(ok.status).toBe(302);
    expect(ok.location!.origin).toBe('https://app.example.com');
  });

  it('F44: a consent without a PKCE S256 challenge is refused (invalid_request), never given a code', async () => {
    const verifier = 'v'.repeat(43);
    const cases: Record<string, string>[] = [{ code_challenge: '' }, { code_challenge_method: 'plain' }];
    for (const overrides of cases) {
      const c = await consent(verifier, overrides);
      expect(c.status).toBe(302);
      expect(c.location!.searchParams.get('error')).toBe('invalid_request');
      expect(c.location!.searchParams.get('code')).toBeNull();
    }
  });

  it('F45: a code_verifier that does not match the challenge is invalid_grant, quoting no secret', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const c = await consent(verifier);
    const wrong = randomBytes(32).toString('base64url');
    const answer = await token({
      grant_type: 'authorization_code',
      code: c.location!.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: wrong,
    });
    expectInvalidGrant(answer);
    expect(answer.text).not.toContain(wrong);
    expect(answer.text).not.toContain(c.location!.searchParams.get('code')!);
    expect(answer.text).not.toContain(DEFAULT_CLIENT.client_secret);
  });

  it('F44: a code is single use and lives 60 s on the stub clock', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const first = await consent(verifier);
    const form = {
      grant_type: 'authorization_code',
      code: first.location!.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    };
    expect((await token(form)).status).toBe(200);
    expectInvalidGrant(await token(form));
    const late = await consent(verifier);
    await control.post('/clock', { advance_ms: 60_000 });
    expectInvalidGrant(await token({ ...form, code: late.location!.searchParams.get('code')! }));
  });

  it('F45: a wrong client secret on a refresh is invalid_client (401)', async () => {
    const pair = await connect();
    const res = await fetch(`${stub.apiUrl}/token`, {
      method: 'POST',
      headers: {
        authorization: basicAuth(DEFAULT_CLIENT.client_id, 'wrong-secret-value'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: pair.refresh_token,
      }).toString(),
    });
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({
      error: 'invalid_client',
      error_v2: { additional_info: { oauth_error: 'invalid_client' } },
    });
    expect(text).not.toContain('wrong-secret-value');
    expect(text).not.toContain(pair.refresh_token);
  });

  it('F46: a refresh rotates: a new access and refresh token, both usable', async () => {
    const first = await connect();
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.access_token).not.toBe(first.access_token);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.expires_in).toBe(3600);
    expect((await apiWith(second.body.access_token)).status).toBe(200);
    expect((await refresh(second.body.refresh_token)).status).toBe(200);
    expect((await grants())[0]).toMatchObject({ refreshes: 2, revoked: false });
  });

  it('F46: a superseded token stays redeemable until its successor is used (a lost answer), then reuse revokes the grant', async () => {
    const first = await connect();
    // The answer to this refresh is "lost": the client never sees it.
    const lost = await refresh(first.refresh_token);
    expect(lost.status).toBe(200);
    // Retrying with the same token still works, because the lost successor was never used.
    const retried = await refresh(first.refresh_token);
    expect(retried.status).toBe(200);
    // The successor's first use (its access token on an API call) closes the window (grace 0).
    expect((await apiWith(retried.body.access_token)).status).toBe(200);
    expectInvalidGrant(await refresh(first.refresh_token));
    expect((await grants())[0]).toMatchObject({
      revoked: true,
      reason: 'reuse_detected',
      reuse_detected: true,
    });
    // Reuse detection revokes every token of the consent.
    expectInvalidGrant(await refresh(retried.body.refresh_token));
    const api = await apiWith(retried.body.access_token);
    expect(api.status).toBe(401);
    expect(api.body.error_v2.error_code).toBe('DEVELOPER_7002');
  });

  it('F46: redeeming the successor refresh token counts as its first use too', async () => {
    const first = await connect();
    const second = await refresh(first.refresh_token);
    expect((await refresh(second.body.refresh_token)).status).toBe(200);
    expectInvalidGrant(await refresh(first.refresh_token));
    expect((await grants())[0]).toMatchObject({ revoked: true, reuse_detected: true });
  });

  it('F46: with reuse_grace_s a superseded token is redeemable within the grace, reuse after it', async () => {
    await control.put('/config', { oauth: { reuse_grace_s: 30 } });
    const first = await connect();
    const second = await refresh(first.refresh_token);
    expect((await apiWith(second.body.access_token)).status).toBe(200);
    await control.post('/clock', { advance_ms: 20_000 });
    expect((await refresh(first.refresh_token)).status).toBe(200);
    expect((await grants())[0]).toMatchObject({ revoked: false, refreshes: 2 });
    await control.post('/clock', { advance_ms: 10_000 });
    expectInvalidGrant(await refresh(first.refresh_token));
    expect((await grants())[0]).toMatchObject({ revoked: true, reuse_detected: true });
  });

  it('F46: refresh_token_expires_in counts from consent; past it the grant expires without revocation', async () => {
    await control.put('/config', { oauth: { refresh_ttl_s: 100, access_ttl_s: 60 } });
    const first = await connect();
    expect(first.expires_in).toBe(60);
    expect(first.refresh_token_expires_in).toBe(100);
    await control.post('/clock', { advance_ms: 40_000 });
    const second = await refresh(first.refresh_token);
    expect(second.body.refresh_token_expires_in).toBe(60);
    await control.post('/clock', { advance_ms: 60_000 });
    expectInvalidGrant(await refresh(second.body.refresh_token));
    expect((await grants())[0]).toMatchObject({ revoked: false, reuse_detected: false });
  });

  it('F45: an expired access token of a grant is 401 DEVELOPER_7028', async () => {
    await control.put('/config', { oauth: { access_ttl_s: 60 } });
    const first = await connect();
    await control.post('/clock', { advance_ms: 60_000 });
    const api = await apiWith(first.access_token);
    expect(api.status).toBe(401);
    expect(api.body.error_v2.error_code).toBe('DEVELOPER_7028');
  });

  it("F47: POST /revoke ends the grant behind a refresh token, only the client's own; any token answers 200", async () => {
    const first = await connect();
    const second = await connect();
    const revokeWith = async (tokenValue: string, authorization: string) =>
      fetch(`${stub.apiUrl}/revoke`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokenValue, token_type_hint: 'refresh_token' }).toString(),
      });
    const own = basicAuth(DEFAULT_CLIENT.client_id, DEFAULT_CLIENT.client_secret);
    expect(
      (await revokeWith(first.refresh_token, basicAuth(DEFAULT_CLIENT.client_id, 'wrong-secret'))).status,
    ).toBe(401);
    const ended = await revokeWith(first.refresh_token, own);
    expect(ended.status).toBe(200);
    expectInvalidGrant(await refresh(first.refresh_token));
    expect((await apiWith(first.access_token)).status).toBe(401);
    // The other grant of the client lives on; unknown and repeated tokens answer 200 too.
    expect((await refresh(second.refresh_token)).status).toBe(200);
    expect((await revokeWith('svc_business_tok_unknown', own)).status).toBe(200);
    expect((await revokeWith(first.refresh_token, own)).status).toBe(200);
    const views = await grants();
    expect(views.map((g) => [g.revoked, g.reason])).toEqual([
      [true, 'revoked_by_client'],
      [false, null],
    ]);
  });

  it('F46: revocation by the business: refresh is invalid_grant and the access token 401 DEVELOPER_7002', async () => {
    const first = await connect();
    const revoked = await control.post('/oauth/revoke', { client_id: DEFAULT_CLIENT.client_id });
    expect(revoked.body.revoked).toBe(1);
    expectInvalidGrant(await refresh(first.refresh_token));
    const api = await apiWith(first.access_token);
    expect(api.status).toBe(401);
    expect(api.body.error_v2.error_code).toBe('DEVELOPER_7002');
    expect((await grants())[0]).toMatchObject({ revoked: true, reason: 'revoked_by_business' });
    // Client credentials are untouched by a consent's revocation.
    expect((await token({ grant_type: 'client_credentials', scope: 'accounting:read' })).status).toBe(200);
  });

  it('F46: drop_after_commit on POST /token applies the rotation, then drops the answer', async () => {
    const first = await connect();
    await control.put('/faults', { once: [{ route: 'POST /token', action: 'drop_after_commit' }] });
    await expect(refresh(first.refresh_token)).rejects.toThrow();
    expect((await grants())[0]).toMatchObject({ refreshes: 1, revoked: false });
    // The lost answer is recoverable: the superseded token still redeems.
    const retried = await refresh(first.refresh_token);
    expect(retried.status).toBe(200);
    expect((await grants())[0]).toMatchObject({ refreshes: 2, revoked: false });
  });

  it('F46: latency_after_commit_ms answers a refresh only after it was applied', async () => {
    const first = await connect();
    await control.put('/faults', { routes: { 'POST /token': { latency_after_commit_ms: 400 } } });
    let settled = false;
    const pending = refresh(first.refresh_token).finally(() => {
      settled = true;
    });
    for (let i = 0; i < 200 && (await grants())[0]!.refreshes === 0; i++) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect((await grants())[0]!.refreshes).toBe(1);
    expect(settled).toBe(false);
    expect((await pending).status).toBe(200);
  });
});
