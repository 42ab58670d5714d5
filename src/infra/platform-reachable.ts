import { connect } from 'node:net';
import { EXIT, ExpectedFailure } from '../exit-codes.ts';

/**
 * A command checks that the platform's host answers before it does any work, as it checks Redis
 * (src/infra/redis-connection.ts): a host that refuses connections, does not resolve or does
 * not answer would otherwise cost the client's whole retry schedule (about 20 s) and end in a
 * stack. The check is one TCP connection to the host and port of PLATFORM_BASE_URL, bounded.
 */

/** host:port of a URL (the scheme's default port when none is given); never its credentials. */
export function hostOf(url: string): string {
  try {
    const parsed = new URL(url);
    const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
    return `${parsed.hostname}:${port}`;
  } catch {
    return 'PLATFORM_BASE_URL';
  }
}

const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
};

/** The platform cannot be reached: a command stops with exit 69, doing nothing. */
export class PlatformUnreachableError extends ExpectedFailure {
  override readonly exitCode = EXIT.unavailable;
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(
      `the platform at ${host} is unreachable (${reason}); check PLATFORM_BASE_URL, or try again once it answers.`,
    );
    this.name = 'PlatformUnreachableError';
  }
}

/** Resolves when a TCP connection to the URL's host and port opens within `timeoutMs`. */
export function ensurePlatformReachable(baseUrl: string, timeoutMs = 3_000): Promise<void> {
  const host = hostOf(baseUrl);
  let target: URL;
  try {
    target = new URL(baseUrl);
  } catch {
    return Promise.reject(new PlatformUnreachableError(host, 'PLATFORM_BASE_URL is not a URL'));
  }
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  // URL keeps the brackets of an IPv6 literal; the socket wants the address alone.
  const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port });
    const fail = (reason: string) => {
      socket.destroy();
      reject(new PlatformUnreachableError(host, reason));
    };
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${timeoutMs / 1000} s`));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      fail(CAUSES[error.code ?? ''] ?? error.code ?? error.message),
    );
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
  });
}
