import type { Logger } from '../../log.ts';
import { PlatformError } from '../errors.ts';
import type { HttpTransport } from '../http-transport.ts';
import { parseBody } from '../parse.ts';
import { TokenResponse } from '../schemas/auth.ts';
import { basicAuthorization, type ClientCredentials } from '../token-request.ts';

/**
 * The token calls of the Authorization Code grant (docs/platform.md F45): the code exchanged
 * once, then the refresh token redeemed for a new pair at every renewal (F46 rotation). Both go
 * through the transport, so a lost answer (network error, 5xx, timeout) is retried with the same
 * body, i.e. the same refresh token: F46 keeps it redeemable while its successor is unused.
 */

/** One token answer of these grants; a refresh token is required (offline_access was asked for). */
export interface GrantAnswer {
  accessToken: string;
  refreshToken: string;
  expiresInS: number | null;
  refreshExpiresInS: number | null;
  scope: string;
}

function answerOf(body: unknown, traceId: string | null, previousRefresh?: string): GrantAnswer {
  const token = parseBody(TokenResponse, body, 'POST /token', traceId);
  const refreshToken = token.refresh_token ?? previousRefresh;
  if (!refreshToken) {
    throw new PlatformError({
      status: 200,
      code: null,
      message:
        'the token answer carries no refresh_token: the consent did not include offline_access (docs/platform.md F45); run `ledgersync connect` again',
      traceId,
      retryable: false,
      method: 'POST',
      path: '/token',
    });
  }
  return {
    accessToken: token.access_token,
    refreshToken,
    expiresInS: token.expires_in,
    refreshExpiresInS:
      token.refresh_token_expires_in !== null &&
      token.refresh_token_expires_in !== undefined &&
      token.refresh_token_expires_in > 0
        ? token.refresh_token_expires_in
        : null,
    scope: token.scope ?? '',
  };
}

export async function exchangeCode(
  transport: HttpTransport,
  credentials: ClientCredentials,
  consent: { code: string; redirectUri: string; codeVerifier: string },
  log: Logger,
): Promise<GrantAnswer> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: consent.code,
    redirect_uri: consent.redirectUri,
    code_verifier: consent.codeVerifier,
  });
  const response = await transport.postForm('/token', form, basicAuthorization(credentials));
  const answer = answerOf(response.body, response.traceId);
  log.info(
    { expiresInS: answer.expiresInS, refreshExpiresInS: answer.refreshExpiresInS },
    'platform consent stored',
  );
  return answer;
}

export async function redeemRefreshToken(
  transport: HttpTransport,
  credentials: ClientCredentials,
  refreshToken: string,
  log: Logger,
): Promise<GrantAnswer> {
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
  const response = await transport.postForm('/token', form, basicAuthorization(credentials));
  const answer = answerOf(response.body, response.traceId, refreshToken);
  log.info({ expiresInS: answer.expiresInS }, 'platform grant renewed');
  return answer;
}

/**
 * The grant behind a refresh token ended at the platform (docs/platform.md F47, RFC 7009): a
 * consent that replaces another one revokes it, so no grant lives on that nothing uses. An
 * unknown or already revoked token answers 200 too; a failure is the caller's to report.
 */
export async function revokeRefreshToken(
  transport: HttpTransport,
  credentials: ClientCredentials,
  refreshToken: string,
): Promise<void> {
  const form = new URLSearchParams({ token: refreshToken, token_type_hint: 'refresh_token' });
  await transport.postForm('/revoke', form, basicAuthorization(credentials));
}

/**
 * Whether the token endpoint refused with the OAuth error `name` (docs/platform.md F45), read
 * tolerantly: a 400 or 401 naming it as `error`, `error.code`, or
 * `error_v2.additional_info.oauth_error` (the message quotes the body when it is not F2's shape).
 */
export function isOAuthError(error: unknown, name: 'invalid_grant' | 'invalid_client'): boolean {
  if (!(error instanceof PlatformError) || (error.status !== 400 && error.status !== 401)) return false;
  if (error.additionalInfo?.oauth_error === name) return true;
  return new RegExp(`\\b${name}\\b`).test(error.platformMessage);
}
