import type { Sql } from 'postgres';
import {
  liveConsentVerifiers,
  liveGrantCiphertexts,
  loadGrant,
  replaceConsentVerifier,
  replaceGrantCiphertexts,
  withGrantLock,
} from './grant-store.ts';
import type { TokenCipher } from './token-cipher.ts';

/**
 * Key rotation that does not wait for traffic (README "Running it for a customer", rotating
 * TOKEN_ENCRYPTION_KEY): every stored value still under another key than TOKEN_ENCRYPTION_KEY is
 * decrypted and written again under it, at each worker start and by `status`. A renewal alone
 * would leave an idle worker's grant under the old key, and removing that key would stop every
 * command. Only ciphertexts are handled here; a token's text never leaves this function.
 */

export interface TokenRekey {
  /** Values written again under TOKEN_ENCRYPTION_KEY by this call. */
  reencrypted: number;
  /**
   * Values still under another key afterwards: normally 0; more when a process whose
   * TOKEN_ENCRYPTION_KEY is another key wrote meanwhile. The old keys must stay until it is 0.
   */
  needOldKey: number;
  /** Whether TOKEN_ENCRYPTION_OLD_KEYS holds a key besides TOKEN_ENCRYPTION_KEY. */
  oldKeys: boolean;
}

/** The value under the current key: itself when it already is, else decrypted and encrypted again. */
function underCurrentKey(cipher: TokenCipher, stored: string): string {
  // decrypt refuses a value no configured key opens (TokenKeyError: one line, exit 78).
  return cipher.isStale(stored) ? cipher.encrypt(cipher.decrypt(stored)) : stored;
}

/**
 * One grant, inside its lock (the one renewals and consents take), read again there: the tokens
 * moved with a compare-and-set on what was read. Returns how many values were written again.
 */
async function reencryptGrant(sql: Sql, cipher: TokenCipher, clientId: string): Promise<number> {
  return withGrantLock(sql, clientId, async (tx) => {
    const grant = await loadGrant(tx, clientId);
    if (!grant || grant.revokedAt) return 0;
    const read = { refreshToken: grant.refreshToken, accessToken: grant.accessToken };
    const written = {
      refreshToken: underCurrentKey(cipher, read.refreshToken),
      accessToken: read.accessToken === null ? null : underCurrentKey(cipher, read.accessToken),
    };
    const moved =
      Number(written.refreshToken !== read.refreshToken) + Number(written.accessToken !== read.accessToken);
    if (moved === 0) return 0;
    return (await replaceGrantCiphertexts(tx, clientId, read, written)) ? moved : 0;
  });
}

async function countNeedingOldKey(sql: Sql, cipher: TokenCipher): Promise<number> {
  const grants = await liveGrantCiphertexts(sql);
  const consents = await liveConsentVerifiers(sql);
  const values = [
    ...grants.flatMap((g) => [g.refreshToken, g.accessToken ?? '']).filter(Boolean),
    ...consents.map((c) => c.codeVerifier),
  ];
  return values.filter((v) => cipher.isStale(v)).length;
}

/**
 * Moves every stored token (platform_grants) and PKCE verifier (oauth_consents) to the current
 * key, then counts what is still under another one.
 */
export async function reencryptStoredTokens(sql: Sql, cipher: TokenCipher): Promise<TokenRekey> {
  let reencrypted = 0;
  for (const grant of await liveGrantCiphertexts(sql)) {
    const stale = [grant.refreshToken, grant.accessToken].some((v) => v !== null && cipher.isStale(v));
    if (stale) reencrypted += await reencryptGrant(sql, cipher, grant.clientId);
  }
  // A started consent has no lock: its row is taken once by its callback, and the compare-and-set
  // leaves a verifier taken or changed meanwhile alone.
  for (const consent of await liveConsentVerifiers(sql)) {
    if (!cipher.isStale(consent.codeVerifier)) continue;
    const written = underCurrentKey(cipher, consent.codeVerifier);
    if (await replaceConsentVerifier(sql, consent.state, consent.codeVerifier, written)) reencrypted++;
  }
  return { reencrypted, needOldKey: await countNeedingOldKey(sql, cipher), oldKeys: cipher.hasOldKeys };
}
