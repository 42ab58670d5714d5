import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OPERATOR_COOKIE, type OperatorAccess, SESSION_TTL_S } from './operator-access.ts';
import { signInPage } from './sign-in-page.ts';

/**
 * Where a login may send the browser: only this server's operator pages, and /oauth/start, so an
 * operator who signs in on the way to the consent lands back on it.
 */
const PAGES = /^\/(status|status\.json|metrics|oauth\/start|admin\/queues(\/[\w\-./:%]*)?)$/;
const DEFAULT_PAGE = '/status';

export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//')) return DEFAULT_PAGE;
  try {
    const url = new URL(next, 'http://ledgersync.invalid');
    if (url.origin !== 'http://ledgersync.invalid' || !PAGES.test(url.pathname)) return DEFAULT_PAGE;
    return `${url.pathname}${url.search}`;
  } catch {
    return DEFAULT_PAGE;
  }
}

function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
}

function fields(source: unknown): { token?: string; next?: string } {
  const record = (typeof source === 'object' && source !== null ? source : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return { token: text(record.token), next: text(record.next) };
}

/**
 * GET /login?token=...&next=/status (or the sign-in form's POST): a right token sets the session
 * cookie and redirects (303) to the page, so the token leaves the address bar and history at
 * once; a wrong one gets 401 and no cookie. /logout clears the cookie.
 */
export function loginRoutes(access: OperatorAccess) {
  const login = async (request: FastifyRequest, reply: FastifyReply, source: unknown) => {
    const { token, next } = fields(source);
    const target = safeNext(next);
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (access.mode === 'open') return reply.redirect(target, 303);
    if (access.mode === 'closed' || !access.tokenMatches(token)) {
      const page = signInPage(target, token ? 'That is not the operator token.' : undefined);
      return reply.code(401).type('text/html; charset=utf-8').send(page);
    }
    const secure = isHttps(request) ? '; Secure' : '';
    reply.header(
      'set-cookie',
      `${OPERATOR_COOKIE}=${access.sessionValue()}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_S}${secure}`,
    );
    return reply.redirect(target, 303);
  };
  return async (app: FastifyInstance) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    app.get('/login', (request, reply) => login(request, reply, request.query));
    app.post('/login', (request, reply) => login(request, reply, request.body));
    app.get('/logout', async (_request, reply) =>
      reply
        .header('set-cookie', `${OPERATOR_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`)
        .redirect(DEFAULT_PAGE, 303),
    );
  };
}
