import { randomBytes } from 'node:crypto';
import {
  BUSINESS_TOKEN_PREFIX,
  DEFAULT_TOKEN_TTL_S,
  parseScopes,
} from '../../../src/platform/schemas/auth.ts';
import { ApiError } from './core/errors.ts';
import type { TokenInfo } from './core/route.ts';
import { AuthorizationCodes } from './oauth/codes.ts';
import { type OAuthConfig, OAuthGrants } from './oauth/grants.ts';

/**
 * OAuth clients and the tokens they were issued (docs/platform.md F1, G5).
 * Secrets and tokens live only here: error messages never quote them.
 */

export interface ClientRecord {
  clientId: string;
  clientSecret: string;
  scopes: ReadonlySet<string>;
  tokenTtlS: number;
}

/** Every scope the stub's platform routes check. */
export const ALL_STUB_SCOPES = [
  'accounting:read',
  'accounting:write',
  'bills:read',
  'bills:write',
  'business:read',
  'cashbacks:read',
  'entities:read',
  'reimbursements:read',
  'reimbursements:write',
  'transactions:read',
  'transactions:write',
  'transfers:read',
  'vendors:read',
  'vendors:write',
];

/** A well-known client present after start and every reset, for the demo and quick trials. */
export const DEFAULT_CLIENT = {
  client_id: 'ledgersync-stub-client',
  client_secret: 'ledgersync-stub-secret',
} as const;

export class AuthStore {
  private readonly clients = new Map<string, ClientRecord>();
  private readonly tokens = new Map<string, TokenInfo>();
  /** Authorization Code grant (docs/platform.md F44–F46). */
  readonly codes: AuthorizationCodes;
  readonly grants: OAuthGrants;

  constructor(
    private readonly now: () => number,
    oauthConfig: () => OAuthConfig,
  ) {
    this.codes = new AuthorizationCodes(now);
    this.grants = new OAuthGrants(now, oauthConfig);
    this.addDefaultClient();
  }

  addClient(clientId: string, clientSecret: string, scopes: string[], tokenTtlS = DEFAULT_TOKEN_TTL_S): void {
    this.clients.set(clientId, { clientId, clientSecret, scopes: new Set(scopes), tokenTtlS });
  }

  /** A registered client by id (the authorization endpoint checks it before any secret is shown). */
  clientById(clientId: string | undefined): ClientRecord | undefined {
    return clientId ? this.clients.get(clientId) : undefined;
  }

  /** The client whose id and secret both match, else undefined (F1). */
  verifyClient(clientId: string | undefined, clientSecret: string | undefined): ClientRecord | undefined {
    const client = this.clientById(clientId);
    return client && client.clientSecret === clientSecret ? client : undefined;
  }

  /** F1: checks the client and grants the requested scopes, which may not exceed the client's. */
  issue(
    clientId: string | undefined,
    clientSecret: string | undefined,
    scope: string | undefined,
  ): {
    access_token: string;
    token_type: 'Bearer';
    expires_in: number;
    scope: string;
  } {
    const client = this.verifyClient(clientId, clientSecret);
    if (!client) throw new ApiError('DEVELOPER_7002', 'invalid client credentials');
    // docs/platform.md G5: no scope requested = a token with no scopes.
    const requested = parseScopes(scope);
    const refused = requested.filter((s) => !client.scopes.has(s));
    if (refused.length > 0) {
      throw new ApiError('DEVELOPER_7100', `scope not granted to this client: ${refused.join(', ')}`, {
        scopes: refused,
      });
    }
    const token = BUSINESS_TOKEN_PREFIX + randomBytes(24).toString('base64url');
    this.tokens.set(token, {
      clientId: client.clientId,
      scopes: new Set(requested),
      expiresAt: this.now() + client.tokenTtlS * 1000,
    });
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: client.tokenTtlS,
      scope: requested.join(' '),
    };
  }

  /** 401 DEVELOPER_7002 without a usable bearer token, 7028 once it expired (F2). */
  authenticate(authorization: string | undefined): TokenInfo {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw new ApiError('DEVELOPER_7002', 'missing or malformed bearer token');
    // A grant's token answers 7002 once revoked and counts as used (docs/platform.md F46).
    const info = this.tokens.get(match[1]!) ?? this.grants.accessToken(match[1]!);
    if (!info) throw new ApiError('DEVELOPER_7002', 'unknown bearer token');
    if (this.now() >= info.expiresAt) throw new ApiError('DEVELOPER_7028', 'access token expired');
    return info;
  }

  /** 403 DEVELOPER_7100 naming the missing scopes. */
  requireScopes(info: TokenInfo, needed: string[]): void {
    const missing = needed.filter((s) => !info.scopes.has(s));
    if (missing.length > 0) {
      throw new ApiError('DEVELOPER_7100', `token lacks the required scope: ${missing.join(', ')}`, {
        required_scopes: missing,
      });
    }
  }

  reset(): void {
    this.clients.clear();
    this.tokens.clear();
    this.codes.reset();
    this.grants.reset();
    this.addDefaultClient();
  }

  private addDefaultClient(): void {
    this.addClient(DEFAULT_CLIENT.client_id, DEFAULT_CLIENT.client_secret, ALL_STUB_SCOPES);
  }
}

/** Client id and secret from `Authorization: Basic base64(id:secret)`, when present. */
export function basicCredentials(authorization: string | undefined): { id: string; secret: string } | null {
  const match = /^Basic\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { id: safeDecode(decoded.slice(0, colon)), secret: safeDecode(decoded.slice(colon + 1)) };
}

/** RFC 6749 2.3.1 percent-encodes id and secret before Basic; plain values pass unchanged. */
function safeDecode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
