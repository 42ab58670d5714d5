import type { Sql } from 'postgres';
import type { Config } from '../config.ts';
import { EXIT, ExpectedFailure } from '../exit-codes.ts';
import { authorizeUrlOf, type ConsentSettings } from '../platform/index.ts';
import { tokenCipherFrom } from './app-context.ts';

/** `connect` or /oauth/start without the Authorization Code grant configured: exit 78, one line. */
class GrantNotConfiguredError extends ExpectedFailure {
  override readonly exitCode = EXIT.config;
  constructor() {
    super(
      'PLATFORM_GRANT is not authorization_code: consent is only for third-party integrations. Set PLATFORM_GRANT=authorization_code, PLATFORM_REDIRECT_URI and TOKEN_ENCRYPTION_KEY (README "Running it for a customer").',
    );
    this.name = 'GrantNotConfiguredError';
  }
}

/** What a consent needs, from the configuration (the contract of docs/platform.md F44). */
export function consentSettingsFrom(config: Config, sql: Sql): ConsentSettings {
  if (config.PLATFORM_GRANT !== 'authorization_code' || !config.PLATFORM_REDIRECT_URI) {
    throw new GrantNotConfiguredError();
  }
  return {
    sql,
    cipher: tokenCipherFrom(config),
    clientId: config.PLATFORM_CLIENT_ID ?? '',
    redirectUri: config.PLATFORM_REDIRECT_URI,
    authorizeUrl: authorizeUrlOf(config),
    scopes: config.PLATFORM_SCOPES,
  };
}

/** A loopback redirect URI: `connect` takes the callback itself, on that port. */
export function isLoopbackRedirect(redirectUri: string): boolean {
  const host = new URL(redirectUri).hostname;
  return host === 'localhost' || host === '127.0.0.1';
}
