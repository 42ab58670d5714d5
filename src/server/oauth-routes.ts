import type { FastifyInstance } from 'fastify';
import type { Logger } from '../log.ts';
import type { GrantAnswer } from '../platform/index.ts';
import { ConsentFailure, type ConsentSettings, completeConsent, startConsent } from '../platform/index.ts';
import { escapeHtml } from './operator/html.ts';

/**
 * The Authorization Code grant on a deployed worker (docs/platform.md F44, F45): GET /oauth/start
 * (an operator route) sends the browser to the platform's consent page; GET /oauth/callback is
 * where the platform sends the business back (PLATFORM_REDIRECT_URI = https://<worker>/oauth/callback).
 * The callback is open, as it must be for a browser coming from the platform: only a state this
 * worker started (single use, an hour at most) is accepted. The page shows the outcome, never a
 * code or token (F45: tokens are not sent to browsers).
 */
export interface ConsentRouteDeps {
  settings: ConsentSettings;
  exchange: (c: { code: string; redirectUri: string; codeVerifier: string }) => Promise<GrantAnswer>;
  /** Ends the grant a new consent replaces (docs/platform.md F47). */
  revoke?: (refreshToken: string) => Promise<void>;
  log: Logger;
}

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`;

export function oauthCallbackRoute(deps: ConsentRouteDeps) {
  return async (app: FastifyInstance) => {
    app.get('/oauth/callback', async (request, reply) => {
      const q = request.query as Record<string, unknown>;
      const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      try {
        await completeConsent(
          {
            ...deps.settings,
            exchange: deps.exchange,
            ...(deps.revoke ? { revoke: deps.revoke } : {}),
            log: deps.log,
          },
          { state: text(q.state), code: text(q.code), error: text(q.error) },
        );
        return reply.send(
          page('Connected', 'ledgersync is connected to the platform. You can close this tab.'),
        );
      } catch (error) {
        if (!(error instanceof ConsentFailure)) deps.log.error({ err: error }, 'consent could not be stored');
        const message =
          error instanceof ConsentFailure
            ? error.message
            : 'the consent could not be stored; see the worker log and try again.';
        return reply.code(400).send(page('Not connected', message));
      }
    });
  };
}

/** Behind the operator guard: starting a consent binds the worker to whoever approves it. */
export function oauthStartRoute(deps: ConsentRouteDeps) {
  return async (app: FastifyInstance) => {
    app.get('/oauth/start', async (_request, reply) => {
      const { url } = await startConsent(deps.settings);
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    });
  };
}
