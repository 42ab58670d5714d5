import { TokenRequest, TokenResponse } from '../../platform/schemas/auth.ts';
import { basicCredentials } from '../auth.ts';
import { ApiError } from '../core/errors.ts';
import type { RouteDef } from '../core/router.ts';
import { body, ok } from './helpers.ts';

/**
 * POST /token (docs/platform.md F1): client credentials, form-encoded with Basic auth as
 * integrators usually send it; JSON bodies and client_id/client_secret in the body also work.
 */
export const authRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/token',
    scope: null,
    allowForm: true,
    tag: 'auth',
    summary: 'Client-credentials token (F1)',
    request: TokenRequest,
    response: TokenResponse,
    handler(ctx) {
      const input = body(ctx, TokenRequest);
      const basic = basicCredentials(ctx.headers.authorization);
      if (basic && input.client_id && input.client_id !== basic.id) {
        throw new ApiError('DEVELOPER_7002', 'client_id in the body does not match the Basic credentials');
      }
      const clientId = basic?.id ?? input.client_id;
      const secret = basic?.secret ?? input.client_secret;
      return ok(ctx.state.auth.issue(clientId, secret, input.scope));
    },
  },
];
