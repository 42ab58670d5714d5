import type { FastifyInstance } from 'fastify';
import type { Sql } from 'postgres';
import type { Metrics } from '../../operations/index.ts';
import type { Queues } from '../../queue/index.ts';
import { type ConsentRouteDeps, oauthStartRoute } from '../oauth-routes.ts';
import { loginRoutes } from './login-route.ts';
import { metricsRoute } from './metrics-route.ts';
import { type OperatorAccess, requireOperator } from './operator-access.ts';
import { queueDashboard } from './queue-dashboard.ts';
import { signInPage } from './sign-in-page.ts';
import { statusRoutes } from './status-routes.ts';

/** What the worker shows its operators; the webhook route is the only one for the outside world. */
export interface OperatorOptions {
  /** OPERATOR_TOKEN: required for every operator route when set (and beyond loopback). */
  token?: string;
  /** The process's metrics, served at /metrics; no /metrics route without them. */
  metrics?: Metrics;
  /** Bull Board at /admin/queues (default on). */
  dashboard?: boolean;
}

export interface OperatorRouteDeps {
  sql: Sql;
  queues: Queues;
  connectionId: string;
  access: OperatorAccess;
  metrics?: Metrics;
  dashboard: boolean;
  /** GET /oauth/start, when the worker uses the Authorization Code grant. */
  consent?: ConsentRouteDeps;
}

/**
 * /login and /logout (open: they check the token themselves), then, behind the access hook,
 * /status, /status.json, /metrics and /admin/queues. The hook is added in an encapsulated
 * scope: it covers exactly the routes registered inside it, Bull Board's API included.
 */
export function operatorRoutes(deps: OperatorRouteDeps) {
  const { access } = deps;
  return async (app: FastifyInstance) => {
    await app.register(loginRoutes(access));
    await app.register(async (scope) => {
      scope.addHook(
        'onRequest',
        requireOperator(access, (next) => signInPage(next)),
      );
      await scope.register(
        statusRoutes({
          sql: deps.sql,
          connectionId: deps.connectionId,
          queues: deps.queues.all(),
          signedIn: (request) => access.credentialOf(request) === 'cookie',
          ...(deps.consent ? { grantClientId: deps.consent.settings.clientId } : {}),
        }),
      );
      if (deps.metrics) await scope.register(metricsRoute(deps.metrics));
      if (deps.consent) await scope.register(oauthStartRoute(deps.consent));
      if (deps.dashboard) await scope.register(queueDashboard(deps.queues));
    });
  };
}
