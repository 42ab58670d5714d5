import type { Sql } from 'postgres';
import type { Logger } from '../../log.ts';
import type { HttpTransport } from '../http-transport.ts';
import type { IssuedToken } from '../token-cache.ts';
import type { ClientCredentials } from '../token-request.ts';
import { GrantUnusableError } from './grant-errors.ts';
import {
  type GrantTokens,
  loadGrant,
  markGrantRevoked,
  type StoredGrant,
  saveRenewedTokens,
  withGrantLock,
} from './grant-store.ts';
import { type GrantAnswer, isOAuthError, redeemRefreshToken } from './grant-token-request.ts';
import type { TokenCipher } from './token-cipher.ts';

/**
 * The access token of the Authorization Code grant, renewed so that the business is never locked
 * out (docs/platform.md F46: a superseded refresh token is reuse once its successor was used, and
 * reuse revokes the whole grant):
 *
 * - One renewal at a time per grant across every process: the grant's advisory lock is held from
 *   reading the refresh token to committing its successor (grant-store.ts withGrantLock).
 * - A new pair is committed before its access token is handed out: nothing uses a successor the
 *   database does not hold, so a renewal whose process dies, or whose commit fails, leaves the
 *   stored refresh token redeemable (its successor unused, F46).
 * - A lost answer is retried by the transport with the same refresh token (safe by F46).
 * - A process that waited for the lock re-reads what the winner stored, and uses it.
 * - invalid_grant means revoked only once a re-read shows the same refresh token still stored:
 *   a consent stored meanwhile (`ledgersync connect`) is used instead.
 */

/** Renew when less than this share of the access token's lifetime is left. */
const RENEW_WHEN_LEFT = 1 / 3;
/** Re-reads after an invalid_grant that found a newer refresh token stored, before giving up. */
const MAX_REREADS = 3;

export interface GrantRenewalOptions {
  sql: Sql;
  cipher: TokenCipher;
  transport: HttpTransport;
  credentials: ClientCredentials;
  log: Logger;
  now?: () => number;
}

/** When a stored access token should be renewed (ms since epoch); now when its lifetime is unknown (F40). */
function renewAtOf(issuedAt: Date | null, expiresAt: Date | null): number {
  if (!issuedAt || !expiresAt) return 0;
  const lifetime = expiresAt.getTime() - issuedAt.getTime();
  return expiresAt.getTime() - lifetime * RENEW_WHEN_LEFT;
}

/** The stored grant's tokens as columns hold them, from one token answer. */
export function encryptedTokens(cipher: TokenCipher, answer: GrantAnswer, now: number): GrantTokens {
  return {
    refreshToken: cipher.encrypt(answer.refreshToken),
    accessToken: cipher.encrypt(answer.accessToken),
    scope: answer.scope,
    accessIssuedAt: new Date(now),
    accessExpiresAt: answer.expiresInS === null ? null : new Date(now + answer.expiresInS * 1000),
    refreshExpiresAt:
      answer.refreshExpiresInS === null ? null : new Date(now + answer.refreshExpiresInS * 1000),
  };
}

type LockedOutcome =
  | { token: IssuedToken }
  | { refused: { storedRefresh: string; plain: string } }
  /** The row changed while the refresh was in flight (a consent, a re-encryption): read it again. */
  | { changed: true };

export class GrantRenewal {
  private readonly now: () => number;
  /** Token-endpoint refresh calls this process made (tests, metrics). */
  refreshes = 0;

  constructor(private readonly options: GrantRenewalOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * A usable access token: the stored one while more than a third of its life is left (and it
   * is not `rejected`, the one the platform just refused), else a renewed one.
   */
  async accessToken(rejected?: string): Promise<IssuedToken> {
    const stored = usable(await loadGrant(this.options.sql, this.options.credentials.clientId));
    const fresh = this.freshToken(stored, rejected);
    return fresh ?? this.renew(rejected);
  }

  private freshToken(stored: StoredGrant, rejected: string | undefined): IssuedToken | null {
    if (!stored.accessToken) return null;
    const renewAtMs = renewAtOf(stored.accessIssuedAt, stored.accessExpiresAt);
    if (this.now() >= renewAtMs) return null;
    const accessToken = this.options.cipher.decrypt(stored.accessToken);
    if (accessToken === rejected) return null;
    return { accessToken, expiresInS: null, renewAtMs };
  }

  private async renew(rejected: string | undefined): Promise<IssuedToken> {
    const { sql, credentials } = this.options;
    for (let reread = 0; ; reread++) {
      const outcome = await withGrantLock(sql, credentials.clientId, (tx) =>
        this.renewLocked(tx as unknown as Sql, rejected),
      );
      if ('token' in outcome) return outcome.token;
      if ('changed' in outcome) {
        this.options.log.info('the stored grant changed while a renewal was in flight; using the stored one');
        continue;
      }
      // Refused: re-read outside the lock. A refresh token other than the one refused means a
      // consent (or a renewal) was stored meanwhile: use it, never revoke for its predecessor.
      const now = usable(await loadGrant(sql, credentials.clientId));
      const current = this.options.cipher.decrypt(now.refreshToken);
      if (current !== outcome.refused.plain && reread < MAX_REREADS) {
        this.options.log.info('platform refused a refresh token already replaced; using the stored one');
        continue;
      }
      const expired = now.refreshExpiresAt !== null && now.refreshExpiresAt.getTime() <= this.now();
      const reason = expired ? 'the consent reached the end of its lifetime' : 'invalid_grant at renewal';
      await markGrantRevoked(sql, credentials.clientId, outcome.refused.storedRefresh, reason);
      this.options.log.error({ reason }, 'platform grant revoked: the business must reconnect');
      throw new GrantUnusableError('revoked', reason);
    }
  }

  /** Inside the grant's lock: re-read, then renew only if what is stored still needs it. */
  private async renewLocked(tx: Sql, rejected: string | undefined): Promise<LockedOutcome> {
    const { cipher, transport, credentials, log } = this.options;
    const stored = usable(await loadGrant(tx, credentials.clientId));
    const fresh = this.freshToken(stored, rejected);
    if (fresh) return { token: fresh };
    const refreshToken = cipher.decrypt(stored.refreshToken);
    let answer: GrantAnswer;
    try {
      this.refreshes++;
      answer = await redeemRefreshToken(transport, credentials, refreshToken, log);
    } catch (error) {
      if (isOAuthError(error, 'invalid_grant')) {
        return { refused: { storedRefresh: stored.refreshToken, plain: refreshToken } };
      }
      throw error;
    }
    const now = this.now();
    const tokens = encryptedTokens(cipher, answer, now);
    // Compare-and-set on the refresh token redeemed: a row changed meanwhile is never overwritten.
    if (!(await saveRenewedTokens(tx, credentials.clientId, stored.refreshToken, tokens))) {
      return { changed: true };
    }
    // Handed out only once the transaction commits (withGrantLock resolves after it).
    return {
      token: {
        accessToken: answer.accessToken,
        expiresInS: null,
        renewAtMs: renewAtOf(tokens.accessIssuedAt, tokens.accessExpiresAt),
      },
    };
  }
}

/** The stored grant, or the failure that says the business must (re)connect. */
function usable(grant: StoredGrant | null): StoredGrant {
  if (!grant) throw new GrantUnusableError('missing');
  if (grant.revokedAt) throw new GrantUnusableError('revoked', grant.revokedReason ?? undefined);
  return grant;
}
