import { EXIT, ExpectedFailure } from '../exit-codes.ts';

/**
 * The worker's HTTP server could not listen where SERVER_HOST and SERVER_PORT say. The port or
 * address is a setting the operator chooses, and waiting does not free it (another worker, or
 * another program, keeps it), so this is configuration (README "Exit codes": 78) with one line
 * naming the variable, not an outage.
 */
export class ListenFailedError extends ExpectedFailure {
  override readonly exitCode = EXIT.config;
  constructor(message: string) {
    super(message);
    this.name = 'ListenFailedError';
  }
}

/** The socket errors of listen() that a different SERVER_PORT or SERVER_HOST resolves. */
function messageFor(code: string, host: string, port: number): string | null {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return (
        `SERVER_PORT ${port} is in use on ${host}: another process (perhaps another worker) listens at ${where}. ` +
        'Stop it, or set SERVER_PORT to a free port (or run this worker with --no-server).'
      );
    case 'EACCES':
      return `SERVER_PORT ${port} needs privileges this process lacks (ports below 1024): set SERVER_PORT to 1024 or above.`;
    case 'EADDRNOTAVAIL':
      return `SERVER_HOST ${host} is not an address of this machine (cannot listen at ${where}): set SERVER_HOST to one of its addresses, or 127.0.0.1.`;
    default:
      return null;
  }
}

/** `error` as a ListenFailedError when it is one of the listen errors above, else `error` itself. */
export function listenFailure(error: unknown, listen: { host: string; port: number }): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  const message = messageFor(code, listen.host, listen.port);
  return message ? new ListenFailedError(message) : error;
}
