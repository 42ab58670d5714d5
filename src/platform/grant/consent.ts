import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import type { Logger } from '../../log.ts';
import { PlatformError } from '../errors.ts';
import { parseScopes } from '../schemas/auth.ts';
import { encryptedTokens } from './grant-renewal.ts';
import {
  loadGrant,
  saveConsentedGrant,
  saveConsentStart,
  takeConsentStart,
  withGrantLock,
} from './grant-store.ts';
import { type GrantAnswer, isOAuthError } from './grant-token-request.ts';
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
    /** Ends the grant this consent replaces (F47); without it, the old grant is left as it is. */
    revoke?: (refreshToken: string) => Promise<void>;
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
  const answer = await exchanged(settings.exchange, {
    code: query.code,
    redirectUri: started.redirectUri,
    codeVerifier: settings.cipher.decrypt(started.codeVerifier),
  });
  // Under the grant's lock, as a renewal writes: a renewal in flight finishes first, and its
  // compare-and-set never lands over this consent (grant-renewal.ts).
  const tokens = encryptedTokens(settings.cipher, answer, Date.now());
  const replaced = await withGrantLock(settings.sql, started.clientId, async (tx) => {
    const previous = await loadGrant(tx, started.clientId);
    await saveConsentedGrant(tx, started.clientId, tokens);
    return previous && !previous.revokedAt ? previous.refreshToken : null;
  });
  settings.log.info({ scopes: parseScopes(answer.scope).length }, 'platform consent stored');
  if (replaced && settings.revoke) {
    // Decrypted inside: a token under a key no longer configured is a warning, not a failed consent.
    await revokeReplaced(settings.revoke, () => settings.cipher.decrypt(replaced), settings.log);
  }
  return { clientId: started.clientId };
}

/**
 * The grant a new consent replaced is ended at the platform (F47), after the new one is stored:
 * nothing uses it any more. Best effort: a failure is one warning (the business can disconnect
 * it in the platform), never a failed consent.
 */
async function revokeReplaced(
  revoke: (refreshToken: string) => Promise<void>,
  refreshToken: () => string,
  log: Logger,
): Promise<void> {
  try {
    await revoke(refreshToken());
    log.info('the grant this consent replaced was revoked at the platform');
  } catch (error) {
    const why = error instanceof PlatformError ? `HTTP ${error.status}` : (error as Error).name;
    log.warn(
      { why },
      'the grant this consent replaced could not be revoked at the platform; the business can disconnect it there',
    );
  }
}

type Exchange = (c: { code: string; redirectUri: string; codeVerifier: string }) => Promise<GrantAnswer>;

/**
 * The code exchanged for the grant's tokens. A code the platform refuses (F44: it lives 60 s and
 * is used once) or a token endpoint that fails is a ConsentFailure: one line, nothing stored, and
 * the next step. Refused client credentials (invalid_client) stay what they are: configuration
 * (exit 78, naming the variables).
 */
async function exchanged(exchange: Exchange, consent: Parameters<Exchange>[0]): Promise<GrantAnswer> {
  try {
    return await exchange(consent);
  } catch (error) {
    if (!(error instanceof PlatformError) || isOAuthError(error, 'invalid_client')) throw error;
    // platformMessage is scrubbed of secrets (errors.ts); kept short for one line.
    const said = error.platformMessage.slice(0, 120);
    throw new ConsentFailure(
      isOAuthError(error, 'invalid_grant')
        ? `the platform refused the consent's code (${said}): nothing was stored. A code lives 60 s and is used once: start again with \`ledgersync connect\` and approve the page it prints.`
        : `the platform's token endpoint answered HTTP ${error.status} (${said}): nothing was stored. Start again with \`ledgersync connect\` in a moment.`,
    );
  }
}
