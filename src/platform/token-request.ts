import type { Logger } from '../log.ts';
import type { HttpTransport } from './http-transport.ts';
import { parseBody } from './parse.ts';
import { parseScopes, TokenResponse } from './schemas/auth.ts';
import type { IssuedToken } from './token-cache.ts';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
}

/**
 * docs/platform.md F1: POST /token with Basic credentials and a form body
 * `grant_type=client_credentials&scope=a:read b:write`. The request takes a rate-limit permit
 * like any other (F3 counts every request from the IP). Nothing of the answer but the lifetime
 * and scope names is logged.
 */
export async function requestToken(
  transport: HttpTransport,
  credentials: ClientCredentials,
  log: Logger,
): Promise<IssuedToken> {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (credentials.scopes.length > 0) form.set('scope', credentials.scopes.join(' '));
  const response = await transport.postForm('/token', form, basicAuthorization(credentials));
  const token = parseBody(TokenResponse, response.body, 'POST /token', response.traceId);
  const granted = new Set(parseScopes(token.scope));
  const missing = credentials.scopes.filter((scope) => !granted.has(scope));
  if (granted.size > 0 && missing.length > 0) log.warn({ missing }, 'platform token lacks requested scopes');
  log.info({ expiresInS: token.expires_in, scopes: granted.size }, 'platform token issued');
  return { accessToken: token.access_token, expiresInS: token.expires_in };
}

/** F1: the client authenticates every token call with HTTP Basic (id:secret). */
export function basicAuthorization(
  credentials: Pick<ClientCredentials, 'clientId' | 'clientSecret'>,
): string {
  return `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
}
