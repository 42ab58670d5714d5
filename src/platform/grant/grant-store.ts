import type { Sql, TransactionSql } from 'postgres';

/**
 * The one home of SQL over platform_grants and oauth_consents (db/migrations/0017). Token columns
 * are ciphertext (token-cipher.ts); this module never sees a token's text.
 */

export interface StoredGrant {
  clientId: string;
  refreshToken: string;
  accessToken: string | null;
  scope: string;
  accessIssuedAt: Date | null;
  accessExpiresAt: Date | null;
  refreshExpiresAt: Date | null;
  consentedAt: Date;
  renewedAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
}

/** Encrypted tokens of one token answer, with the times they were computed to lapse at. */
export interface GrantTokens {
  refreshToken: string;
  accessToken: string;
  scope: string;
  accessIssuedAt: Date;
  accessExpiresAt: Date | null;
  refreshExpiresAt: Date | null;
}

type Db = Sql | TransactionSql;

export async function loadGrant(sql: Db, clientId: string): Promise<StoredGrant | null> {
  const [row] = await sql<StoredGrant[]>`
    select client_id as "clientId", refresh_token as "refreshToken", access_token as "accessToken", scope,
      access_issued_at as "accessIssuedAt", access_expires_at as "accessExpiresAt",
      refresh_expires_at as "refreshExpiresAt", consented_at as "consentedAt", renewed_at as "renewedAt",
      revoked_at as "revokedAt", revoked_reason as "revokedReason"
    from platform_grants where client_id = ${clientId}`;
  return row ?? null;
}

/** A consent just given (connect): replaces whatever was stored, revoked or not. */
export async function saveConsentedGrant(sql: Db, clientId: string, tokens: GrantTokens): Promise<void> {
  await sql`
    insert into platform_grants (client_id, refresh_token, access_token, scope, access_issued_at,
      access_expires_at, refresh_expires_at, consented_at, renewed_at, revoked_at, revoked_reason)
    values (${clientId}, ${tokens.refreshToken}, ${tokens.accessToken}, ${tokens.scope}, ${tokens.accessIssuedAt},
      ${tokens.accessExpiresAt}, ${tokens.refreshExpiresAt}, now(), null, null, null)
    on conflict (client_id) do update set refresh_token = excluded.refresh_token,
      access_token = excluded.access_token, scope = excluded.scope,
      access_issued_at = excluded.access_issued_at, access_expires_at = excluded.access_expires_at,
      refresh_expires_at = excluded.refresh_expires_at, consented_at = now(), renewed_at = null,
      revoked_at = null, revoked_reason = null`;
}

/**
 * A renewal's answer, written in the transaction that holds the grant's lock, only if the row still
 * holds the refresh token the renewal redeemed (`redeemed`, as stored): a compare-and-set, so a
 * consent or a re-encryption stored meanwhile is never overwritten by an older grant's successor.
 * False when the row changed: the caller re-reads and uses what is stored.
 */
export async function saveRenewedTokens(
  tx: Db,
  clientId: string,
  redeemed: string,
  tokens: GrantTokens,
): Promise<boolean> {
  const rows = await tx`
    update platform_grants set refresh_token = ${tokens.refreshToken}, access_token = ${tokens.accessToken},
      scope = ${tokens.scope}, access_issued_at = ${tokens.accessIssuedAt},
      access_expires_at = ${tokens.accessExpiresAt},
      refresh_expires_at = coalesce(${tokens.refreshExpiresAt}, refresh_expires_at), renewed_at = now()
    where client_id = ${clientId} and refresh_token = ${redeemed} and revoked_at is null
    returning client_id`;
  return rows.length > 0;
}

/**
 * Marks the grant revoked, only if it still holds the refresh token the platform refused: a
 * consent stored meanwhile is never revoked for its predecessor's refusal.
 */
export async function markGrantRevoked(
  sql: Db,
  clientId: string,
  refusedRefreshToken: string,
  reason: string,
): Promise<boolean> {
  const rows = await sql`
    update platform_grants set revoked_at = now(), revoked_reason = ${reason}
    where client_id = ${clientId} and refresh_token = ${refusedRefreshToken} and revoked_at is null
    returning client_id`;
  return rows.length > 0;
}

/**
 * Runs fn holding the grant's renewal lock: one renewal at a time per grant across every process
 * (a transaction-scoped advisory lock, released by commit, rollback or a dead session). What fn
 * writes is committed before this resolves.
 */
export function withGrantLock<T>(
  sql: Sql,
  clientId: string,
  fn: (tx: TransactionSql) => Promise<T>,
): Promise<T> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${`ledgersync.platform_grant:${clientId}`}))`;
    return fn(tx);
  }) as Promise<T>;
}

export async function saveConsentStart(
  sql: Db,
  consent: { state: string; clientId: string; redirectUri: string; codeVerifier: string },
): Promise<void> {
  // Consents never come back after an hour (the code itself lives 60 s, F44): clear them as we go.
  await sql`delete from oauth_consents where created_at < now() - interval '1 hour'`;
  await sql`
    insert into oauth_consents (state, client_id, redirect_uri, code_verifier)
    values (${consent.state}, ${consent.clientId}, ${consent.redirectUri}, ${consent.codeVerifier})`;
}

/** The consent a callback's state names, taken once (a state is single-use); null if unknown. */
export async function takeConsentStart(
  sql: Db,
  state: string,
): Promise<{ clientId: string; redirectUri: string; codeVerifier: string } | null> {
  const [row] = await sql<{ clientId: string; redirectUri: string; codeVerifier: string }[]>`
    delete from oauth_consents where state = ${state} and created_at > now() - interval '1 hour'
    returning client_id as "clientId", redirect_uri as "redirectUri", code_verifier as "codeVerifier"`;
  return row ?? null;
}

/**
 * The encrypted values a key rotation moves (token-rekey.ts): the tokens of every grant not
 * revoked. A revoked grant's tokens are never decrypted again (a consent replaces them), so they
 * are left as they are and never stop a process whose keys cannot open them.
 */
export async function liveGrantCiphertexts(
  sql: Db,
): Promise<{ clientId: string; refreshToken: string; accessToken: string | null }[]> {
  return sql<{ clientId: string; refreshToken: string; accessToken: string | null }[]>`
    select client_id as "clientId", refresh_token as "refreshToken", access_token as "accessToken"
    from platform_grants where revoked_at is null order by client_id`;
}

/**
 * A grant's tokens re-encrypted under the current key, only if the row still holds exactly the
 * ciphertexts read (`read`): a compare-and-set, so a renewal or a consent stored meanwhile is never
 * overwritten. False when the row changed.
 */
export async function replaceGrantCiphertexts(
  tx: Db,
  clientId: string,
  read: { refreshToken: string; accessToken: string | null },
  written: { refreshToken: string; accessToken: string | null },
): Promise<boolean> {
  const rows = await tx`
    update platform_grants set refresh_token = ${written.refreshToken}, access_token = ${written.accessToken}
    where client_id = ${clientId} and refresh_token = ${read.refreshToken}
      and access_token is not distinct from ${read.accessToken} and revoked_at is null
    returning client_id`;
  return rows.length > 0;
}

/** The PKCE verifiers of consents that can still come back (an older one is never taken, F44). */
export async function liveConsentVerifiers(sql: Db): Promise<{ state: string; codeVerifier: string }[]> {
  return sql<{ state: string; codeVerifier: string }[]>`
    select state, code_verifier as "codeVerifier" from oauth_consents
    where created_at > now() - interval '1 hour' order by state`;
}

/** A consent's verifier re-encrypted, only if it still holds the ciphertext read (and is not taken). */
export async function replaceConsentVerifier(
  sql: Db,
  state: string,
  read: string,
  written: string,
): Promise<boolean> {
  const rows = await sql`
    update oauth_consents set code_verifier = ${written}
    where state = ${state} and code_verifier = ${read}
    returning state`;
  return rows.length > 0;
}
