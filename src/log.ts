import pino, { type DestinationStream, type Logger } from 'pino';
import { scrubSecrets } from './secrets.ts';

export type { Logger };

export interface LogOptions {
  level?: string;
  name?: string;
  /** Pretty lines for a human; defaults to "stderr is a TTY". */
  pretty?: boolean;
  /** Where lines go; tests pass a capture stream to prove nothing secret is written. */
  destination?: DestinationStream;
}

/**
 * Keys whose values are always secret, wherever they appear in a log object. Values under
 * other keys are still scrubbed for token-shaped strings by scrubSecrets (see secrets.ts).
 */
const REDACTED_PATHS = [
  'authorization',
  'Authorization',
  '*.authorization',
  '*.Authorization',
  'headers.authorization',
  'req.headers.authorization',
  '*.headers.authorization',
  'client_secret',
  '*.client_secret',
  'clientSecret',
  '*.clientSecret',
  'access_token',
  '*.access_token',
  'accessToken',
  '*.accessToken',
  'refresh_token',
  '*.refresh_token',
  'secret',
  '*.secret',
  'webhookSecret',
  '*.webhookSecret',
  'operatorToken',
  '*.operatorToken',
  'password',
  '*.password',
];

export function createLogger(options: LogOptions = {}): Logger {
  // Logs go to stderr, always: stdout carries a command's data (one JSON document under --json).
  const pretty = options.pretty ?? (process.stderr.isTTY === true && !options.destination);
  const base: pino.LoggerOptions = {
    level: options.level ?? 'info',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: {
      // Deep scrub: a token pasted into any string field (an error message, a URL) is masked too.
      log: (object) => scrubSecrets(object) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? scrubSecrets(a) : a)) as Parameters<typeof method>,
        );
      },
    },
  };
  if (options.name) base.name = options.name;
  if (options.destination) return pino(base, options.destination);
  if (pretty) {
    return pino({
      ...base,
      transport: {
        target: 'pino-pretty',
        options: { colorize: true, translateTime: 'SYS:HH:MM:ss', destination: 2 },
      },
    });
  }
  return pino(base, pino.destination({ fd: 2, sync: true }));
}

/** A logger that writes nothing: for library code called without one. */
export const silentLogger: Logger = pino({ level: 'silent' });
