import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import type { Logger } from '../../log.ts';
import { parseScopes } from '../schemas/auth.ts';
import { encryptedTokens } from './grant-renewal.ts';
import { saveConsentedGrant, saveConsentStart, takeConsentStart } from './grant-store.ts';
import type { GrantAnswer } from './grant-token-request.ts';
import type { TokenCipher } from './token-cipher.ts';

/**
 * The business's consent (docs/platform.md F44, F45): a consent page address carrying a fresh
 * `state` and a PKCE S256 challenge, and the callback that checks the state, exchanges the code
 * with the verifier, and stores the grant. Started consents are kept in the database, so the
 * callback may reach another process than the one that started it (a deployed worker's route).
 */

export interface ConsentSettings {
  sql: Sql;
  cipher: TokenCipher;
  clientId: string;
  redirectUri: string;
  /** The consent page (PLATFORM_AUTHORIZE_URL, or /oauth/authorize on the platform's host). */
  authorizeUrl: string;
  /** The product's scopes; offline_access is added (a refresh token is what keeps it running). */
  scopes: string;
}

/** F44: the consent page lives on the platform's origin, outside /developer/v1. */
export function authorizeUrlOf(config: {
  PLATFORM_AUTHORIZE_URL?: string | undefined;
  PLATFORM_BASE_URL?: string | undefined;
}): string {
  if (config.PLATFORM_AUTHORIZE_URL) return config.PLATFORM_AUTHORIZE_URL;
  return new URL('/oauth/authorize', config.PLATFORM_BASE_URL).toString();
}

/** Starts a consent: records its state and verifier, and returns the page the business opens. */
export async function startConsent(settings: ConsentSettings): Promise<{ url: string; state: string }> {
  const state = randomBytes(24).toString('base64url');
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  await saveConsentStart(settings.sql, {
    state,
    clientId: settings.clientId,
    redirectUri: settings.redirectUri,
    codeVerifier: settings.cipher.encrypt(verifier),
  });
  const scopes = [...new Set([...parseScopes(settings.scopes), 'offline_access'])];
  const url = new URL(settings.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: settings.clientId,
    redirect_uri: settings.redirectUri,
    scope: scopes.join(' '),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return { url: url.toString(), state };
}

/** A callback that stores nothing, with what to tell the business (never a token). */
export class ConsentFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConsentFailure';
  }
}

export interface CallbackQuery {
  state?: string | undefined;
  code?: string | undefined;
  error?: string | undefined;
}

/**
 * The platform sent the business back. The state must name a consent started here (once: a
 * state is single-use), then the code is exchanged and the grant stored, replacing a revoked one.
 */
export async function completeConsent(
  settings: Pick<ConsentSettings, 'sql' | 'cipher'> & {
    exchange: (c: { code: string; redirectUri: string; codeVerifier: string }) => Promise<GrantAnswer>;
    log: Logger;
  },
  query: CallbackQuery,
): Promise<{ clientId: string }> {
  if (!query.state)
    throw new ConsentFailure('the callback carries no state: start again with `ledgersync connect`.');
  const started = await takeConsentStart(settings.sql, query.state);
  if (!started) {
    throw new ConsentFailure(
      'the callback names a consent this worker did not start, or one already used or older than an hour: start again with `ledgersync connect`.',
    );
  }
  if (query.error) {
    throw new ConsentFailure(
      query.error === 'access_denied'
        ? 'the business declined the consent: nothing was stored.'
        : `the platform ended the consent with ${query.error.slice(0, 64)}: nothing was stored.`,
    );
  }
  if (!query.code)
    throw new ConsentFailure('the callback carries no code: start again with `ledgersync connect`.');
  const answer = await settings.exchange({
    code: query.code,
    redirectUri: started.redirectUri,
    codeVerifier: settings.cipher.decrypt(started.codeVerifier),
  });
  await saveConsentedGrant(
    settings.sql,
    started.clientId,
    encryptedTokens(settings.cipher, answer, Date.now()),
  );
  settings.log.info({ scopes: parseScopes(answer.scope).length }, 'platform consent stored');
  return { clientId: started.clientId };
}
