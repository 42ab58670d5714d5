import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import postgres, { type Sql } from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import { createPlatformClient, type PlatformClient } from '../../../src/platform/client.ts';
import { completeConsent, startConsent } from '../../../src/platform/grant/consent.ts';
import { GrantUnusableError } from '../../../src/platform/grant/grant-errors.ts';
import { encryptedTokens } from '../../../src/platform/grant/grant-renewal.ts';
import { loadGrant, saveConsentedGrant } from '../../../src/platform/grant/grant-store.ts';
import { TokenCipher } from '../../../src/platform/grant/token-cipher.ts';
import { useTestDatabase } from '../../support/db.ts';
import { useTestRedis } from '../../support/redis.ts';

/**
 * The Authorization Code grant's renewal (docs/platform.md F45, F46) against a hand-driven token
 * endpoint, with the grant in real PostgreSQL: what the stub cannot stage exactly (a consent
 * stored while a refresh is in flight, two processes' renewals at the same instant).
 */
const db = useTestDatabase();
const redis = useTestRedis();
const cipher = new TokenCipher(randomBytes(32));
const CLIENT = 'grant-client';

type TokenHandler = (form: URLSearchParams, res: ServerResponse, n: number) => void | Promise<void>;
let server: Server;
let origin: string;
let onToken: TokenHandler;
const forms: URLSearchParams[] = [];
const sockets = new Set<Socket>();
const pools: Sql[] = [];
const clients: PlatformClient[] = [];

function answer(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
const invalidGrant = (res: ServerResponse) =>
  answer(
    res,
    {
      error: 'invalid_grant',
      error_description: 'refresh token not redeemable',
      error_v2: {
        error_code: 'DEVELOPER_7001',
        message: 'invalid_grant: refresh token not redeemable',
        additional_info: { oauth_error: 'invalid_grant' },
        notes: '',
      },
    },
    400,
  );
const pair = (n: number) => ({
  access_token: `svc_business_tok_access_${n}`,
  refresh_token: `svc_business_tok_refresh_${n}`,
  token_type: 'Bearer',
  expires_in: 3600,
  scope: 'accounting:read offline_access',
});

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      forms.push(form);
      void onToken(form, res, forms.length);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(pools.map((p) => p.end({ timeout: 5 })));
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

beforeEach(async () => {
  forms.length = 0;
  // A consent whose access token has run out: the next call must renew.
  await saveConsentedGrant(
    db.sql,
    CLIENT,
    encryptedTokens(
      cipher,
      {
        accessToken: 'svc_business_tok_access_0',
        refreshToken: 'svc_business_tok_refresh_0',
        expiresInS: 60,
        refreshExpiresInS: null,
        scope: '',
      },
      Date.now() - 3_600_000,
    ),
  );
});

/** A client as one process has it: its own pool, its own token cache. */
function processClient(): PlatformClient {
  const sql = postgres(db.url, { max: 3, onnotice: () => {}, connection: { search_path: db.schema } });
  pools.push(sql);
  const c = createPlatformClient({
    baseUrl: `${origin}/developer/v1`,
    clientId: CLIENT,
    clientSecret: 'grant-secret-0123456789',
    scopes: 'accounting:read',
    redis: redis.connect(),
    keyPrefix: redis.prefix,
    retry: { maxAttempts: 4, baseMs: 10, capMs: 50 },
    requestTimeoutMs: 2_000,
    grant: { sql, cipher },
  });
  clients.push(c);
  return c;
}

async function storedAccess(): Promise<string> {
  return cipher.decrypt((await loadGrant(db.sql, CLIENT))!.accessToken!);
}

describe('Authorization Code grant renewal (docs/platform.md F46)', () => {
  it('F46: two processes renewing at once make one token call; the one that waited uses what the other stored', async () => {
    onToken = async (_form, res, n) => {
      await new Promise((r) => setTimeout(r, 200));
      answer(res, pair(n));
    };
    const [a, b] = [processClient(), processClient()];
    await Promise.all([a.authenticate(), b.authenticate()]);
    expect(forms).toHaveLength(1);
    expect(forms[0]!.get('grant_type')).toBe('refresh_token');
    expect(forms[0]!.get('refresh_token')).toBe('svc_business_tok_refresh_0');
    expect(await storedAccess()).toBe('svc_business_tok_access_1');
    expect(cipher.decrypt((await loadGrant(db.sql, CLIENT))!.refreshToken)).toBe(
      'svc_business_tok_refresh_1',
    );
  });

  it('F46: a refresh whose answer was lost is repeated with the same refresh token', async () => {
    onToken = (_form, res, n) => {
      if (n === 1) res.socket?.destroy();
      else answer(res, pair(n));
    };
    await processClient().authenticate();
    expect(forms.map((f) => f.get('refresh_token'))).toEqual([
      'svc_business_tok_refresh_0',
      'svc_business_tok_refresh_0',
    ]);
    expect(await storedAccess()).toBe('svc_business_tok_access_2');
  });

  it('F46: invalid_grant for a refresh token already replaced by a new consent revokes nothing; the new one is used', async () => {
    onToken = async (_form, res) => {
      // The business reconnected while this refresh was in flight.
      await saveConsentedGrant(
        db.sql,
        CLIENT,
        encryptedTokens(
          cipher,
          {
            accessToken: 'svc_business_tok_access_new',
            refreshToken: 'svc_business_tok_refresh_new',
            expiresInS: 3600,
            refreshExpiresInS: null,
            scope: '',
          },
          Date.now(),
        ),
      );
      invalidGrant(res);
    };
    await processClient().authenticate();
    const grant = await loadGrant(db.sql, CLIENT);
    expect(grant!.revokedAt).toBeNull();
    expect(forms).toHaveLength(1);
    expect(await storedAccess()).toBe('svc_business_tok_access_new');
  });

  it('F46: invalid_grant for the refresh token still stored marks the grant revoked: reconnect, exit 78', async () => {
    onToken = (_form, res) => invalidGrant(res);
    const error = await processClient()
      .authenticate()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(GrantUnusableError);
    expect((error as GrantUnusableError).exitCode).toBe(78);
    expect((error as Error).message).toContain('ledgersync connect');
    expect((await loadGrant(db.sql, CLIENT))!.revokedAt).not.toBeNull();
    // Revoked is final until a new consent: no further token calls.
    await expect(processClient().authenticate()).rejects.toBeInstanceOf(GrantUnusableError);
    expect(forms).toHaveLength(1);
  });

  it('F45: a fresh stored access token is used without any token call', async () => {
    onToken = (_form, res, n) => answer(res, pair(n));
    await processClient().authenticate();
    expect(forms).toHaveLength(1);
    await processClient().authenticate();
    expect(forms).toHaveLength(1);
  });
  it('F46: a consent stored while a renewal is in flight waits for it and is the grant kept and used', async () => {
    const consentAnswer = {
      accessToken: 'svc_business_tok_access_consent',
      refreshToken: 'svc_business_tok_refresh_consent',
      expiresInS: 3600,
      refreshExpiresInS: null,
      scope: 'accounting:read offline_access',
    };
    const { state } = await startConsent({
      sql: db.sql,
      cipher,
      clientId: CLIENT,
      redirectUri: 'http://127.0.0.1:1/callback',
      authorizeUrl: 'http://127.0.0.1:1/oauth/authorize',
      scopes: 'accounting:read',
    });
    let consentStored: Promise<unknown> | undefined;
    onToken = async (_form, res, n) => {
      // The business approves (connect's callback) while this refresh's answer is on its way.
      consentStored = completeConsent(
        { sql: db.sql, cipher, exchange: async () => consentAnswer, log: silentLogger },
        { state, code: 'code-1' },
      );
      await waitForLockWaiter();
      answer(res, pair(n));
    };
    await processClient().authenticate();
    await consentStored;
    const grant = await loadGrant(db.sql, CLIENT);
    expect(cipher.decrypt(grant!.refreshToken)).toBe('svc_business_tok_refresh_consent');
    expect(await storedAccess()).toBe('svc_business_tok_access_consent');
    // The next process uses the consent's token as it is: no further token call.
    await processClient().authenticate();
    expect(forms).toHaveLength(1);
  });

  it('F46: a renewal saves only over the refresh token it redeemed (compare-and-set); a row changed meanwhile is re-read and used', async () => {
    onToken = async (_form, res, n) => {
      // A write that does not take the grant's lock lands while the refresh is in flight.
      await saveConsentedGrant(
        db.sql,
        CLIENT,
        encryptedTokens(
          cipher,
          {
            accessToken: 'svc_business_tok_access_other',
            refreshToken: 'svc_business_tok_refresh_other',
            expiresInS: 3600,
            refreshExpiresInS: null,
            scope: '',
          },
          Date.now(),
        ),
      );
      answer(res, pair(n));
    };
    await processClient().authenticate();
    expect(forms).toHaveLength(1);
    const grant = await loadGrant(db.sql, CLIENT);
    expect(cipher.decrypt(grant!.refreshToken)).toBe('svc_business_tok_refresh_other');
    expect(await storedAccess()).toBe('svc_business_tok_access_other');
  });
});

/** Until a session waits for an advisory lock (the consent queued behind the renewal), 3 s at most. */
async function waitForLockWaiter(): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const [row] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`;
    if (row!.n > 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
