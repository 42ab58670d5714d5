import { randomBytes } from 'node:crypto';
import { BUSINESS_TOKEN_PREFIX } from '../../../../src/platform/schemas/auth.ts';
import { ApiError } from '../core/errors.ts';
import type { TokenInfo } from '../core/route.ts';
import type { ApprovedConsent } from './codes.ts';
import { OAuthError } from './oauth-error.ts';

/**
 * Grants of the Authorization Code flow and their refresh rotation (docs/platform.md F45, F46).
 * A grant is one business consent; every refresh issues a new access + refresh pair. Token values
 * live only in the maps below: nothing here logs them or puts them in a message.
 */

/** PUT /__stub/config `oauth` (packages/stub/README.md). */
export interface OAuthConfig {
  /** Access-token lifetime of these grants (F45: 3600 s unless the app configures another). */
  accessTtlS: number;
  /** Absolute refresh lifetime counted from consent; null = refresh tokens never expire. */
  refreshTtlS: number | null;
  /** F46: how long a superseded refresh token stays redeemable after its successor's first use. */
  reuseGraceS: number;
  /** Redirect URIs registered for every client, beyond the default client's localhost ones (F44). */
  redirectUris: string[];
}

export const DEFAULT_OAUTH_CONFIG: OAuthConfig = {
  accessTtlS: 3600,
  refreshTtlS: null,
  reuseGraceS: 0,
  redirectUris: [],
};

/** Scope that asks for a refresh token (F45). */
export const OFFLINE_ACCESS = 'offline_access';

export interface GrantTokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  refresh_token_expires_in?: number;
}

type RevokeReason = 'reuse_detected' | 'revoked_by_business' | 'revoked_by_client';

interface Grant {
  grantId: string;
  clientId: string;
  scopes: string[];
  refreshExpiresAt: number | null;
  revoked: boolean;
  reason: RevokeReason | null;
  refreshes: number;
  reuseDetected: boolean;
}

/** One access + refresh pair of a grant. */
interface Pair {
  grant: Grant;
  info: TokenInfo;
  /** First use: its refresh token redeemed or its access token presented on an API call (F46). */
  usedAt: number | null;
  /** The pair issued in place of this one; set once this pair is superseded. */
  successor: Pair | null;
}

/** What GET /__stub/oauth/grants shows of a grant: never a token value. */
export interface GrantView {
  client_id: string;
  grant_id: string;
  revoked: boolean;
  reason: RevokeReason | null;
  refreshes: number;
  reuse_detected: boolean;
}

export class OAuthGrants {
  private readonly grants: Grant[] = [];
  private readonly byAccess = new Map<string, Pair>();
  private readonly byRefresh = new Map<string, Pair>();

  constructor(
    private readonly now: () => number,
    private readonly config: () => OAuthConfig,
  ) {}

  /** F45: a redeemed code starts a grant with its first pair. */
  start(consent: ApprovedConsent): GrantTokenAnswer {
    const ttl = this.config().refreshTtlS;
    const grant: Grant = {
      grantId: `grant_${this.grants.length + 1}`,
      clientId: consent.clientId,
      scopes: consent.scopes,
      refreshExpiresAt: ttl === null ? null : consent.consentAt + ttl * 1000,
      revoked: false,
      reason: null,
      refreshes: 0,
      reuseDetected: false,
    };
    this.grants.push(grant);
    return this.issuePair(grant).answer;
  }

  /**
   * F46 rotation. The current refresh token, or a superseded one whose successor is unused (a
   * lost answer) or was first used less than reuse_grace_s ago, yields a fresh pair; any other
   * superseded token is reuse: invalid_grant, and the whole grant is revoked.
   */
  refresh(token: string, clientId: string): GrantTokenAnswer {
    const pair = this.byRefresh.get(token);
    if (!pair || pair.grant.clientId !== clientId)
      throw new OAuthError('invalid_grant', 'unknown refresh token');
    const { grant } = pair;
    const now = this.now();
    if (grant.revoked) throw new OAuthError('invalid_grant', 'the grant was revoked');
    if (grant.refreshExpiresAt !== null && now >= grant.refreshExpiresAt) {
      throw new OAuthError('invalid_grant', 'refresh token expired; the business must consent again');
    }
    const successor = pair.successor;
    if (successor?.usedAt != null && now >= successor.usedAt + this.config().reuseGraceS * 1000) {
      grant.revoked = true;
      grant.reason = 'reuse_detected';
      grant.reuseDetected = true;
      throw new OAuthError('invalid_grant', 'refresh token reused; the grant is revoked');
    }
    pair.usedAt ??= now;
    const { pair: next, answer } = this.issuePair(grant);
    grant.refreshes++;
    if (successor === null || successor.usedAt === null) {
      // The unused successor is superseded by the new pair, as its predecessor is.
      if (successor) successor.successor = next;
      pair.successor = next;
    }
    return answer;
  }

  /**
   * The TokenInfo of an access token of a grant, or undefined for a token not issued here.
   * Presenting it is the pair's first use (F46). 401 DEVELOPER_7002 once revoked, 7028 once expired.
   */
  accessToken(token: string): TokenInfo | undefined {
    const pair = this.byAccess.get(token);
    if (!pair) return undefined;
    if (pair.grant.revoked) throw new ApiError('DEVELOPER_7002', 'access token of a revoked grant');
    const now = this.now();
    if (now >= pair.info.expiresAt) throw new ApiError('DEVELOPER_7028', 'access token expired');
    pair.usedAt ??= now;
    return pair.info;
  }

  /** POST /__stub/oauth/revoke: the business disconnects the app; returns how many grants it ended. */
  revokeClient(clientId: string): number {
    let count = 0;
    for (const grant of this.grants) {
      if (grant.clientId !== clientId || grant.revoked) continue;
      grant.revoked = true;
      grant.reason = 'revoked_by_business';
      count++;
    }
    return count;
  }

  /** POST /revoke (F47): the grant behind one of the client's tokens ends; false when none matched. */
  revokeToken(token: string, clientId: string): boolean {
    const pair = this.byRefresh.get(token) ?? this.byAccess.get(token);
    if (!pair || pair.grant.clientId !== clientId || pair.grant.revoked) return false;
    pair.grant.revoked = true;
    pair.grant.reason = 'revoked_by_client';
    return true;
  }

  list(): GrantView[] {
    return this.grants.map((g) => ({
      client_id: g.clientId,
      grant_id: g.grantId,
      revoked: g.revoked,
      reason: g.reason,
      refreshes: g.refreshes,
      reuse_detected: g.reuseDetected,
    }));
  }

  reset(): void {
    this.grants.length = 0;
    this.byAccess.clear();
    this.byRefresh.clear();
  }

  private issuePair(grant: Grant): { pair: Pair; answer: GrantTokenAnswer } {
    const accessTtlS = this.config().accessTtlS;
    const pair: Pair = {
      grant,
      info: {
        clientId: grant.clientId,
        scopes: new Set(grant.scopes),
        expiresAt: this.now() + accessTtlS * 1000,
      },
      usedAt: null,
      successor: null,
    };
    const answer: GrantTokenAnswer = {
      access_token: newToken(),
      token_type: 'Bearer',
      expires_in: accessTtlS,
      scope: grant.scopes.join(' '),
    };
    this.byAccess.set(answer.access_token, pair);
    if (grant.scopes.includes(OFFLINE_ACCESS)) {
      const refreshToken = newToken();
      this.byRefresh.set(refreshToken, pair);
      answer.refresh_token = refreshToken;
      if (grant.refreshExpiresAt !== null) {
        answer.refresh_token_expires_in = Math.max(
          0,
          Math.floor((grant.refreshExpiresAt - this.now()) / 1000),
        );
      }
    }
    return { pair, answer };
  }
}

/** Access and refresh tokens share the published prefix (docs/platform.md G6); only the maps tell them apart. */
function newToken(): string {
  return BUSINESS_TOKEN_PREFIX + randomBytes(24).toString('base64url');
}
