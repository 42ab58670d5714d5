import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT } from '../../src/auth.ts';
import { Api, basicAuth, Control, type Harness, harness } from './helpers.ts';

/** docs/platform.md F1 (token) and F2 (error body, trace id, codes). */
describe('stub auth and errors', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.stub.close();
  });

  const tokenCall = (body: string, headers: Record<string, string>) =>
    fetch(`${h.stub.apiUrl}/token`, { method: 'POST', headers, body });

  it('F1: form-encoded body with Basic auth returns a scoped svc_business_tok_ token', async () => {
    const res = await tokenCall('grant_type=client_credentials&scope=accounting%3Aread+transactions%3Aread', {
      authorization: basicAuth(DEFAULT_CLIENT.client_id, DEFAULT_CLIENT.client_secret),
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.token_type).toBe('Bearer');
    expect(body.scope).toBe('accounting:read transactions:read');
    expect(body.expires_in).toBe(864_000);
    expect(String(body.access_token)).toMatch(/^svc_business_tok_/);
  });

  it('F1: JSON body and client_id/client_secret in the form are accepted too', async () => {
    const json = await tokenCall(
      JSON.stringify({ grant_type: 'client_credentials', scope: 'accounting:read', ...DEFAULT_CLIENT }),
      { 'content-type': 'application/json' },
    );
    expect(json.status).toBe(200);
    const form = await tokenCall(
      new URLSearchParams({ grant_type: 'client_credentials', ...DEFAULT_CLIENT }).toString(),
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(form.status).toBe(200);
    // docs/platform.md G5: no scope requested = a token with no scopes.
    expect(((await form.json()) as { scope: string }).scope).toBe('');
  });

  it('F1: wrong secret is 401 DEVELOPER_7002 and the message does not quote the secret', async () => {
    const res = await tokenCall('grant_type=client_credentials', {
      authorization: basicAuth(DEFAULT_CLIENT.client_id, 'not-the-secret-xyz'),
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(JSON.parse(text).error_v2.error_code).toBe('DEVELOPER_7002');
    expect(text).not.toContain('not-the-secret-xyz');
  });

  it('F1: a scope the client was not granted is refused with DEVELOPER_7100', async () => {
    await h.control.post('/clients', {
      client_id: 'narrow',
      client_secret: 's3cret',
      scopes: ['accounting:read'],
    });
    const res = await tokenCall('grant_type=client_credentials&scope=accounting:write', {
      authorization: basicAuth('narrow', 's3cret'),
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error_v2: { error_code: string } }).error_v2.error_code).toBe(
      'DEVELOPER_7100',
    );
  });

  it('F1: every route checks its scope (403 DEVELOPER_7100 naming it)', async () => {
    const res = await tokenCall('grant_type=client_credentials&scope=accounting:read', {
      authorization: basicAuth(DEFAULT_CLIENT.client_id, DEFAULT_CLIENT.client_secret),
      'content-type': 'application/x-www-form-urlencoded',
    });
    const api = new Api(h.stub, ((await res.json()) as { access_token: string }).access_token);
    const denied = await api.get('/transactions');
    expect(denied.status).toBe(403);
    expect(denied.body.error_v2).toMatchObject({
      error_code: 'DEVELOPER_7100',
      additional_info: { required_scopes: ['transactions:read'] },
    });
    expect((await api.get('/accounting/all-connections')).status).toBe(200);
  });

  it('F2: missing or malformed bearer token is 401 DEVELOPER_7002', async () => {
    const api = new Api(h.stub, null);
    const missing = await api.get('/transactions');
    expect(missing.status).toBe(401);
    expect(missing.body.error_v2.error_code).toBe('DEVELOPER_7002');
    const malformed = await api.call('GET', '/transactions', undefined, { authorization: 'Token abc' });
    expect(malformed.body.error_v2.error_code).toBe('DEVELOPER_7002');
  });

  it('F2: an expired token is 401 DEVELOPER_7028 (short-lived client, stub clock)', async () => {
    await h.control.post('/clients', {
      client_id: 'short',
      client_secret: 'short-secret',
      scopes: 'accounting:read',
      token_ttl_s: 60,
    });
    const res = await tokenCall('grant_type=client_credentials&scope=accounting:read', {
      authorization: basicAuth('short', 'short-secret'),
      'content-type': 'application/x-www-form-urlencoded',
    });
    const token = (await res.json()) as { access_token: string; expires_in: number };
    expect(token.expires_in).toBe(60);
    const api = new Api(h.stub, token.access_token);
    expect((await api.get('/accounting/all-connections')).status).toBe(200);
    await h.control.post('/clock', { advance_ms: 61_000 });
    const expired = await api.get('/accounting/all-connections');
    expect(expired.status).toBe(401);
    expect(expired.body.error_v2.error_code).toBe('DEVELOPER_7028');
  });

  it('F2: error body has error_v2 {error_code, message, additional_info, notes} and error', async () => {
    const res = await h.api.post('/accounting/accounts', { gl_accounts: [], surprise: 1 });
    expect(res.status).toBe(422);
    expect(res.body.error_v2).toEqual({
      error_code: 'DEVELOPER_7001',
      message: expect.any(String),
      additional_info: expect.objectContaining({ fields: expect.arrayContaining(['surprise']) }),
      notes: '',
    });
    expect(res.body.error).toMatchObject({ error_code: 'DEVELOPER_7001' });
  });

  it('F2: a body that is not JSON is 400 DEVELOPER_7011', async () => {
    const res = await h.api.call('POST', '/accounting/accounts', '{not json', {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.body.error_v2.error_code).toBe('DEVELOPER_7011');
  });

  it('F2: every response carries x-trace-id (success, error, control, unknown path)', async () => {
    const answers = [
      await h.api.get('/accounting/all-connections'),
      await h.api.get('/no/such/route'),
      await new Control(h.stub).get('/health'),
    ];
    const raw = await fetch(`${h.stub.url}/elsewhere`);
    expect(raw.headers.get('x-trace-id')).toBeTruthy();
    for (const a of answers) expect(a.headers.get('x-trace-id')).toMatch(/\S+/);
    expect(answers[1]!.status).toBe(404);
  });
});
