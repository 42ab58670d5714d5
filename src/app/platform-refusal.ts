import { hostOf } from '../infra/index.ts';
import { PlatformError } from '../platform/index.ts';

/**
 * The platform's token call (docs/platform.md F1, G5) refusing what the operator configured, met
 * by the first command or worker start after setting up: a configuration mistake (README "Exit
 * codes": 78), told in one line naming the variables, never the secret.
 *
 * - 401: the client id and secret do not match a client of this platform (the secret mistyped, or
 *   issued by the other environment, G5).
 * - 404 or 405: nothing at `<PLATFORM_BASE_URL>/token`. The URL ends in /developer/v1 (checked
 *   before any work, src/app/app-context.ts), so its host or port is another service's.
 */

/** True for the answer of the token call: the only POST whose path ends in /token. */
function isTokenCall(error: PlatformError): boolean {
  return error.method === 'POST' && (error.path ?? '').split('?')[0]!.endsWith('/token');
}

/**
 * The one line for a token call the platform refused because of the configuration, or null when
 * `error` is something else. The platform's own message is quoted scrubbed; it never holds the
 * secret, which is sent only in the Basic header.
 */
export function tokenRefusalMessage(error: unknown, platformUrl: string | undefined): string | null {
  if (!(error instanceof PlatformError) || !platformUrl || !isTokenCall(error)) return null;
  const host = hostOf(platformUrl);
  const answer = `${error.status}${error.code ? ` ${error.code}` : ''} ${error.platformMessage}`;
  if (error.status === 401) {
    return (
      `the platform at ${host} refused the client credentials (POST /token answered ${answer}): ` +
      'check PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET (the secret issued with that id, in the same environment as PLATFORM_BASE_URL).'
    );
  }
  if (error.status === 404 || error.status === 405) {
    return (
      `PLATFORM_BASE_URL (${platformUrl}) is not the platform's API base: POST ${error.path} answered ${error.status}. ` +
      'Check its host and port: another service answers there.'
    );
  }
  return null;
}
