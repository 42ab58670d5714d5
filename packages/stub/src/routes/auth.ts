import { z } from 'zod';
import { TokenRequest, TokenResponse } from '../../../../src/platform/schemas/auth.ts';
import { basicCredentials } from '../auth.ts';
import { ApiError } from '../core/errors.ts';
import type { RouteDef } from '../core/route.ts';
import { OAuthError } from '../oauth/oauth-error.ts';
import { body, ok } from './helpers.ts';

/**
 * POST /token (docs/platform.md F1, F45): client credentials, form-encoded with Basic auth as
 * integrators usually send it; JSON bodies and client_id/client_secret in the body also work. The
 * Authorization Code grant redeems a code here, and the Refresh Token grant rotates (F46).
 */

const ClientFields = {
  client_id: z.string().min(1).optional(),
  client_secret: z.string().min(1).optional(),
};

/** F45: a code from the authorization endpoint, with the redirect URI and PKCE verifier it was bound to. */
const AuthorizationCodeRequest = z.strictObject({
  grant_type: z.literal('authorization_code'),
  code: z.string().min(1),
  redirect_uri: z.string().min(1).optional(),
  code_verifier: z.string().min(1).optional(),
  ...ClientFields,
});

/** F45, F46: a refresh token for a new pair. */
const RefreshTokenRequest = z.strictObject({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string().min(1),
  ...ClientFields,
});

/** F47: the token to end, as RFC 7009 sends it. */
const RevokeRequest = z.strictObject({
  token: z.string().min(1),
  token_type_hint: z.enum(['refresh_token', 'access_token']).optional(),
  ...ClientFields,
});
const RevokeResponse = z.object({});

const AnyTokenRequest = z.discriminatedUnion('grant_type', [
  TokenRequest,
  AuthorizationCodeRequest,
  RefreshTokenRequest,
]);

export const authRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/token',
    scope: null,
    allowForm: true,
    tag: 'auth',
    summary: 'Token: client credentials (F1), authorization code and refresh token (F45, F46)',
    request: AnyTokenRequest,
    response: TokenResponse,
    handler(ctx) {
      const input = body(ctx, AnyTokenRequest);
      const clientCredentials = input.grant_type === 'client_credentials';
      // Client credentials keep their F1 refusal; the consent grants answer OAuth's invalid_client.
      const refuseClient = (message: string) =>
        clientCredentials
          ? new ApiError('DEVELOPER_7002', message)
          : new OAuthError('invalid_client', message);
      const basic = basicCredentials(ctx.headers.authorization);
      if (basic && input.client_id && input.client_id !== basic.id) {
        throw refuseClient('client_id in the body does not match the Basic credentials');
      }
      const clientId = basic?.id ?? input.client_id;
      const secret = basic?.secret ?? input.client_secret;
      const { auth } = ctx.state;
      if (input.grant_type === 'client_credentials') return ok(auth.issue(clientId, secret, input.scope));
      const client = auth.verifyClient(clientId, secret);
      if (!client) throw refuseClient('invalid client credentials');
      if (input.grant_type === 'refresh_token')
        return ok(auth.grants.refresh(input.refresh_token, client.clientId));
      const consent = auth.codes.redeem(input.code, client.clientId, input.redirect_uri, input.code_verifier);
      return ok(auth.grants.start(consent));
    },
  },
  {
    method: 'POST',
    path: '/revoke',
    scope: null,
    allowForm: true,
    tag: 'auth',
    summary: 'Token revocation (F47, RFC 7009): ends the grant behind a refresh or access token',
    request: RevokeRequest,
    response: RevokeResponse,
    handler(ctx) {
      const input = body(ctx, RevokeRequest);
      const basic = basicCredentials(ctx.headers.authorization);
      const client = ctx.state.auth.verifyClient(
        basic?.id ?? input.client_id,
        basic?.secret ?? input.client_secret,
      );
      if (!client) throw new OAuthError('invalid_client', 'invalid client credentials');
      // RFC 7009 2.2: an unknown, foreign or already revoked token answers 200 as well.
      ctx.state.auth.grants.revokeToken(input.token, client.clientId);
      return ok({});
    },
  },
];
