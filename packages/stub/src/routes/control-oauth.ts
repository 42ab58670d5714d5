import { z } from 'zod';
import type { RouteDef } from '../core/route.ts';
import { parseRequest } from '../core/validate.ts';
import { ok } from './helpers.ts';

/** Control routes of the Authorization Code grant (docs/platform.md F44–F46, packages/stub/README.md). */

const RevokeRequest = z.strictObject({ client_id: z.string().min(1) });

export const controlOAuthRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/__stub/oauth/grants',
    scope: null,
    summary: 'Every consent grant: client, revoked and why, refresh count, reuse detected (no token values)',
    handler: (ctx) => ok(ctx.state.auth.grants.list()),
  },
  {
    method: 'POST',
    path: '/__stub/oauth/revoke',
    scope: null,
    summary: 'The business disconnects the app: every grant of the client is revoked',
    handler(ctx) {
      const c = parseRequest(RevokeRequest, ctx.body ?? {});
      return ok({ client_id: c.client_id, revoked: ctx.state.auth.grants.revokeClient(c.client_id) });
    },
  },
];
