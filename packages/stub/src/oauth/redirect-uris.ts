/**
 * Which redirect URIs a client may use (docs/platform.md F44): HTTPS, or http on localhost for
 * development, and registered for the client. The stub's default client also accepts any
 * localhost address, so a worker on a developer's machine needs no registration.
 */

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why a redirect URI is refused, or null when the client may use it. */
export function redirectUriProblem(
  uri: string | undefined,
  registered: readonly string[],
  acceptsAnyLocalhost: boolean,
): string | null {
  if (!uri) return 'redirect_uri is missing';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'redirect_uri is not an absolute URL';
  }
  const local = LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    return 'redirect_uri must use HTTPS (plain http only on localhost)';
  }
  if (url.hash) return 'redirect_uri must not have a fragment';
  if (registered.includes(uri) || (acceptsAnyLocalhost && local)) return null;
  return 'redirect_uri is not registered for this client';
}
