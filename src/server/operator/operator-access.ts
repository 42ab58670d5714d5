import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sameSecret } from '../../secrets.ts';

/** The browser pages' session cookie, set by GET /login. */
export const OPERATOR_COOKIE = 'ledgersync_operator';

/**
 * open: loopback only and no OPERATOR_TOKEN, the pages need nothing but a request whose Host
 * names loopback (requireOperator). token: a request must carry
 * the token (Authorization: Bearer, or the cookie). closed: beyond loopback without a token,
 * nothing is served (config refuses this; the server fails closed anyway).
 */
type AccessMode = 'open' | 'token' | 'closed';

export interface OperatorAccess {
  mode: AccessMode;
  /** True when the candidate is the operator token (constant time). */
  tokenMatches(candidate: string | undefined): boolean;
  /** How the request proves itself: null when it does not. */
  credentialOf(request: FastifyRequest): 'open' | 'bearer' | 'cookie' | null;
  /** The cookie value a successful login sets: derived from the token, never the token itself. */
  sessionValue(): string;
}

const LOOPBACK = new Set(['localhost', '::1', '[::1]', '::ffff:127.0.0.1']);

export function isLoopback(host: string | undefined): boolean {
  if (!host) return false;
  return LOOPBACK.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * True when a request's Host header names a loopback address (127.x.y.z, localhost, [::1]), with
 * or without a port. Open mode answers only these: a DNS-rebinding page reaches a loopback server
 * under its own name (evil.example resolving to 127.0.0.1), and that name is in the Host header.
 */
export function hostHeaderIsLoopback(header: string | undefined): boolean {
  const match = /^(\[::1\]|[^:[\]]+)(?::\d{1,5})?$/.exec(header ?? '');
  return match ? isLoopback(match[1]!.toLowerCase()) : false;
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function bearerOf(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** How long a sign-in lasts: the cookie's Max-Age, and checked by the server too. */
export const SESSION_TTL_S = 12 * 3600;

export function operatorAccess(
  token: string | undefined,
  host: string | undefined,
  now: () => number = Date.now,
): OperatorAccess {
  const mode: AccessMode = token ? 'token' : isLoopback(host) ? 'open' : 'closed';
  // A login cookie only this token produces, valid until the time it carries: stealing one never
  // yields the token, and a copied cookie stops working when the sign-in would have ended.
  const sign = (expiresAt: number) =>
    createHmac('sha256', token ?? '')
      .update(`ledgersync operator session until ${expiresAt}`)
      .digest('hex');
  const validSession = (cookie: string): boolean => {
    const dot = cookie.indexOf('.');
    const expiresAt = Number(cookie.slice(0, dot));
    if (dot <= 0 || !Number.isSafeInteger(expiresAt) || expiresAt * 1000 <= now()) return false;
    return sameSecret(cookie.slice(dot + 1), sign(expiresAt));
  };
  const tokenMatches = (candidate: string | undefined) =>
    Boolean(token) && candidate !== undefined && sameSecret(candidate, token!);
  return {
    mode,
    tokenMatches,
    sessionValue: () => {
      const expiresAt = Math.floor(now() / 1000) + SESSION_TTL_S;
      return `${expiresAt}.${sign(expiresAt)}`;
    },
    credentialOf(request) {
      if (mode === 'open') return 'open';
      if (mode === 'closed') return null;
      if (tokenMatches(bearerOf(request))) return 'bearer';
      const cookie = cookieOf(request, OPERATOR_COOKIE);
      if (cookie !== undefined && validSession(cookie)) return 'cookie';
      return null;
    },
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A cookie-authenticated change (Bull Board's retry, clean, ...) must come from our own pages. */
function crossSiteWrite(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

const MISDIRECTED =
  'Misdirected request: without OPERATOR_TOKEN the operator pages answer only at a loopback address (127.0.0.1, localhost, [::1]).\n';

/**
 * onRequest hook for every operator route: 421 in open mode when the Host is not loopback, 401
 * without the token, 403 for a cross-site write. Token mode ignores the Host: the token guards it.
 */
export function requireOperator(access: OperatorAccess, signInPage: (next: string) => string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (access.mode === 'open' && !hostHeaderIsLoopback(request.headers.host)) {
      return reply
        .code(421)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(MISDIRECTED);
    }
    const credential = access.credentialOf(request);
    if (credential === 'cookie' && crossSiteWrite(request)) {
      return reply.code(403).send({ error: 'cross-site request refused' });
    }
    if (credential) return;
    reply
      .code(401)
      .header('www-authenticate', 'Bearer realm="ledgersync"')
      .header('cache-control', 'no-store');
    const wantsHtml = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (wantsHtml && access.mode === 'token') {
      return reply.type('text/html; charset=utf-8').send(signInPage(request.url));
    }
    return reply.send({ error: 'operator token required' });
  };
}
