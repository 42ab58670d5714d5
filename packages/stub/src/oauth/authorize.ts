import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_CLIENT } from '../auth.ts';
import { queryObject } from '../core/http.ts';
import type { StubState } from '../state.ts';
import { consentPage, refusalPage } from './consent-page.ts';
import { OFFLINE_ACCESS } from './grants.ts';
import { redirectUriProblem } from './redirect-uris.ts';

/**
 * The authorization endpoint (docs/platform.md F44), outside /developer/v1: GET shows the consent
 * page, POST carries the business's decision and redirects back with a code or an error. A
 * request whose client or redirect URI cannot be trusted gets a 400 page and is never redirected.
 */

export const AUTHORIZE_PATH = '/oauth/authorize';

/** Scopes any client may ask for besides its own (docs/platform.md G7's exceptions). */
const ALWAYS_GRANTABLE = new Set(['openid', OFFLINE_ACCESS]);

type Params = Record<string, string>;

export async function handleAuthorize(
  state: StubState,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'POST') {
    return sendHtml(reply, 405, refusalPage(`method ${method} not allowed`), { allow: 'GET, POST' });
  }
  const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const params: Params =
    method === 'GET'
      ? queryObject(new URL(request.url, 'http://stub.local').searchParams)
      : queryObject(new URLSearchParams(raw.toString('utf8')));
  const refusal = untrustedRequest(state, params);
  if (refusal) return sendHtml(reply, 400, refusalPage(refusal));
  const redirect = new URL(params.redirect_uri!);
  const back = (query: Params) => {
    for (const [k, v] of Object.entries({ ...query, state: params.state! })) redirect.searchParams.set(k, v);
    reply.code(302).headers({ location: redirect.toString(), 'cache-control': 'no-store' }).send();
  };
  // From here the redirect URI is trusted: problems travel back to it (RFC 6749 4.1.2.1).
  if (params.response_type !== 'code') return back({ error: 'unsupported_response_type' });
  // F44 (chosen here): PKCE is required, so a client that forgets it fails against the stub.
  if (!params.code_challenge) {
    return back({ error: 'invalid_request', error_description: 'code_challenge is required (PKCE S256)' });
  }
  if (params.code_challenge_method !== 'S256') {
    return back({ error: 'invalid_request', error_description: 'code_challenge_method must be S256' });
  }
  const scopes = (params.scope ?? '').split(/\s+/).filter((s) => s.length > 0);
  const client = state.auth.clientById(params.client_id)!;
  const refused = scopes.filter((s) => !client.scopes.has(s) && !ALWAYS_GRANTABLE.has(s));
  if (refused.length > 0) {
    return back({
      error: 'invalid_scope',
      error_description: `not granted to this app: ${refused.join(' ')}`,
    });
  }
  if (method === 'GET') return sendHtml(reply, 200, consentPage(params, scopes));
  if (params.decision === 'deny') return back({ error: 'access_denied' });
  if (params.decision !== 'approve')
    return sendHtml(reply, 400, refusalPage('decision must be approve or deny'));
  const code = state.auth.codes.issue({
    clientId: client.clientId,
    redirectUri: params.redirect_uri!,
    scopes,
    codeChallenge: params.code_challenge,
    consentAt: state.now(),
  });
  back({ code });
}

/** Why the request may not even be redirected back (unknown client, bad redirect URI, no state). */
function untrustedRequest(state: StubState, params: Params): string | null {
  if (!state.auth.clientById(params.client_id)) return 'unknown client_id';
  const problem = redirectUriProblem(
    params.redirect_uri,
    state.config.oauth.redirectUris,
    params.client_id === DEFAULT_CLIENT.client_id,
  );
  if (problem) return problem;
  if (!params.state) return 'state is missing';
  return null;
}

function sendHtml(
  reply: FastifyReply,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  reply
    .code(status)
    .headers({ ...headers, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    .send(html);
}
