import { randomBytes } from 'node:crypto';
import postgres, { type Sql } from 'postgres';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { encryptedTokens } from '../../../src/platform/grant/grant-renewal.ts';
import {
  loadGrant,
  markGrantRevoked,
  saveConsentedGrant,
  saveConsentStart,
  withGrantLock,
} from '../../../src/platform/grant/grant-store.ts';
import { TokenCipher, TokenKeyError } from '../../../src/platform/grant/token-cipher.ts';
import { reencryptStoredTokens } from '../../../src/platform/grant/token-rekey.ts';
import { useTestDatabase } from '../../support/db.ts';

/**
 * README "Running it for a customer", rotating TOKEN_ENCRYPTION_KEY: the stored values move to the
 * current key without a renewal (an idle worker never renews), inside the grant's lock and as a
 * compare-and-set, so a renewal is never overwritten.
 */
const db = useTestDatabase();
const KEY_A = randomBytes(32);
const KEY_B = randomBytes(32);
const underA = new TokenCipher(KEY_A);
/** Step 2 of the rotation: B is the key, A is kept in TOKEN_ENCRYPTION_OLD_KEYS. */
const rotated = new TokenCipher(KEY_B, [KEY_A]);
/** Step 3: A removed. */
const onlyB = new TokenCipher(KEY_B);
const keyIdOf = (value: string) => value.split('.')[1];
const B_ID = keyIdOf(onlyB.encrypt('x'));
const A_ID = keyIdOf(underA.encrypt('x'));
const pools: Sql[] = [];

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end({ timeout: 5 })));
});

beforeEach(async () => {
  await db.sql`delete from platform_grants`;
  await db.sql`delete from oauth_consents`;
});

async function storeGrant(clientId: string, cipher: TokenCipher, n = 0): Promise<void> {
  await saveConsentedGrant(
    db.sql,
    clientId,
    encryptedTokens(
      cipher,
      {
        accessToken: `svc_business_tok_access_${n}`,
        refreshToken: `svc_business_tok_refresh_${n}`,
        expiresInS: 3600,
        refreshExpiresInS: null,
        scope: 'accounting:read offline_access',
      },
      Date.now(),
    ),
  );
}

async function storeConsent(state: string, cipher: TokenCipher): Promise<void> {
  await saveConsentStart(db.sql, {
    state,
    clientId: 'rekey-client',
    redirectUri: 'http://127.0.0.1:1/callback',
    codeVerifier: cipher.encrypt(`verifier-${state}`),
  });
}

async function storedGrant(clientId: string): Promise<{ refreshToken: string; accessToken: string }> {
  const grant = await loadGrant(db.sql, clientId);
  return { refreshToken: grant!.refreshToken, accessToken: grant!.accessToken! };
}

/** A pool of another process, named so that its sessions can be watched in pg_stat_activity. */
function processPool(name: string): Sql {
  const sql = postgres(db.url, {
    max: 2,
    onnotice: () => {},
    connection: { search_path: db.schema, application_name: name },
  });
  pools.push(sql);
  return sql;
}

/** Resolves once a session of the pool named `name` waits for a lock (a row's, or an advisory one). */
async function waitsOnALock(name: string, lock: 'tuple' | 'transactionid' | 'advisory'): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const [row] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where application_name = ${name} and wait_event_type = 'Lock' and wait_event = ${lock}`;
    if (row!.n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${name} never waited on a ${lock} lock`);
}

/** A transaction of another process that runs `write`, then stays open until `commit()`. */
function heldOpen(
  open: (fn: (tx: Sql) => Promise<void>) => Promise<unknown>,
  write: (tx: Sql) => Promise<unknown>,
): { written: Promise<void>; commit: () => void; done: Promise<unknown> } {
  let commit!: () => void;
  let wrote!: () => void;
  const committed = new Promise<void>((r) => {
    commit = r;
  });
  const written = new Promise<void>((r) => {
    wrote = r;
  });
  const done = open(async (tx) => {
    await write(tx);
    wrote();
    await committed;
  });
  return { written, commit, done };
}

describe('README key rotation: re-encryption of the stored tokens without a renewal', () => {
  it('README key rotation: grant tokens and consent verifiers under the old key move to the current one; a second call moves nothing', async () => {
    await storeGrant('rekey-client', underA);
    await storeConsent('rekey-state', underA);

    const first = await reencryptStoredTokens(db.sql, rotated);
    expect(first).toEqual({ reencrypted: 3, needOldKey: 0, oldKeys: true });

    const grant = await storedGrant('rekey-client');
    const [consent] = await db.sql<{ code_verifier: string }[]>`select code_verifier from oauth_consents`;
    for (const value of [grant.refreshToken, grant.accessToken, consent!.code_verifier]) {
      expect(keyIdOf(value)).toBe(B_ID);
      expect(keyIdOf(value)).not.toBe(A_ID);
      // The old key alone no longer opens it: A may go.
      expect(() => underA.decrypt(value)).toThrow(TokenKeyError);
    }
    // The same plain text, read with B alone (TOKEN_ENCRYPTION_OLD_KEYS removed).
    expect(onlyB.decrypt(grant.refreshToken)).toBe('svc_business_tok_refresh_0');
    expect(onlyB.decrypt(grant.accessToken)).toBe('svc_business_tok_access_0');
    expect(onlyB.decrypt(consent!.code_verifier)).toBe('verifier-rekey-state');

    expect(await reencryptStoredTokens(db.sql, rotated)).toEqual({
      reencrypted: 0,
      needOldKey: 0,
      oldKeys: true,
    });
    expect(await storedGrant('rekey-client')).toEqual(grant);
    // Without old keys nothing is left to say about them.
    expect(await reencryptStoredTokens(db.sql, onlyB)).toEqual({
      reencrypted: 0,
      needOldKey: 0,
      oldKeys: false,
    });
  });

  it('README key rotation: a value no configured key opens fails as decrypt does (TokenKeyError, exit 78, no value quoted) and is left as stored', async () => {
    const lost = new TokenCipher(randomBytes(32));
    await storeGrant('rekey-lost', lost);
    const before = await storedGrant('rekey-lost');
    const failure = await reencryptStoredTokens(db.sql, rotated).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TokenKeyError);
    expect((failure as TokenKeyError).exitCode).toBe(78);
    expect((failure as Error).message).toContain('TOKEN_ENCRYPTION_OLD_KEYS');
    expect((failure as Error).message).not.toContain(before.refreshToken);
    expect((failure as Error).message).not.toContain('svc_business_tok_');
    expect((failure as Error).message.split('\n')).toHaveLength(1);
    expect(await storedGrant('rekey-lost')).toEqual(before);
  });

  it('README key rotation: a revoked grant and a consent past its hour are never decrypted again, so a lost key there stops nothing', async () => {
    const lost = new TokenCipher(randomBytes(32));
    await storeGrant('rekey-revoked', lost);
    const revoked = await storedGrant('rekey-revoked');
    expect(await markGrantRevoked(db.sql, 'rekey-revoked', revoked.refreshToken, 'invalid_grant')).toBe(true);
    await storeConsent('rekey-old-state', lost);
    await db.sql`update oauth_consents set created_at = now() - interval '2 hours'`;
    await storeGrant('rekey-live', underA);

    expect(await reencryptStoredTokens(db.sql, rotated)).toEqual({
      reencrypted: 2,
      needOldKey: 0,
      oldKeys: true,
    });
    expect(await storedGrant('rekey-revoked')).toEqual(revoked);
    expect(keyIdOf((await storedGrant('rekey-live')).refreshToken)).toBe(B_ID);
  });

  it('README key rotation: a renewal written while the re-encryption waits on the row is never overwritten (compare-and-set)', async () => {
    await storeGrant('rekey-cas', underA, 0);
    // A renewal by a process whose TOKEN_ENCRYPTION_KEY is still A, from a writer that holds the
    // row without the grant's lock (an older version's renewal): only the compare-and-set protects it.
    const renewed = encryptedTokens(
      underA,
      {
        accessToken: 'svc_business_tok_access_1',
        refreshToken: 'svc_business_tok_refresh_1',
        expiresInS: 3600,
        refreshExpiresInS: null,
        scope: 'accounting:read offline_access',
      },
      Date.now(),
    );
    const renewal = heldOpen(
      (fn) => processPool('rekey-cas-renewal').begin((tx) => fn(tx as unknown as Sql)),
      (tx) => tx`update platform_grants set refresh_token = ${renewed.refreshToken},
        access_token = ${renewed.accessToken} where client_id = 'rekey-cas'`,
    );
    await renewal.written;
    // The renewal holds the row; the re-encryption reads the committed (older) pair and waits on it.
    const rekey = reencryptStoredTokens(processPool('rekey-cas'), rotated);
    await waitsOnALock('rekey-cas', 'transactionid');
    renewal.commit();
    await renewal.done;
    expect(await rekey).toEqual({ reencrypted: 0, needOldKey: 2, oldKeys: true });
    const after = await storedGrant('rekey-cas');
    expect(after).toEqual({ refreshToken: renewed.refreshToken, accessToken: renewed.accessToken });

    // The next call (a worker start, `status`) moves the renewal's pair.
    expect(await reencryptStoredTokens(db.sql, rotated)).toEqual({
      reencrypted: 2,
      needOldKey: 0,
      oldKeys: true,
    });
    const moved = await storedGrant('rekey-cas');
    expect(onlyB.decrypt(moved.refreshToken)).toBe('svc_business_tok_refresh_1');
    expect(onlyB.decrypt(moved.accessToken)).toBe('svc_business_tok_access_1');
  });

  it("README key rotation: a renewal holding the grant's lock finishes first; the re-encryption then moves what it stored", async () => {
    await storeGrant('rekey-locked', underA, 0);
    const renewal = heldOpen(
      (fn) =>
        withGrantLock(processPool('rekey-locked-renewal'), 'rekey-locked', (tx) => fn(tx as unknown as Sql)),
      (tx) => tx`update platform_grants set refresh_token = ${underA.encrypt('svc_business_tok_refresh_2')},
        access_token = ${underA.encrypt('svc_business_tok_access_2')} where client_id = 'rekey-locked'`,
    );
    await renewal.written;
    const rekey = reencryptStoredTokens(processPool('rekey-locked'), rotated);
    // It waits on the grant's advisory lock, then reads the row again inside it.
    await waitsOnALock('rekey-locked', 'advisory');
    renewal.commit();
    await renewal.done;
    expect(await rekey).toEqual({ reencrypted: 2, needOldKey: 0, oldKeys: true });
    const moved = await storedGrant('rekey-locked');
    expect(onlyB.decrypt(moved.refreshToken)).toBe('svc_business_tok_refresh_2');
    expect(onlyB.decrypt(moved.accessToken)).toBe('svc_business_tok_access_2');
  });
});
