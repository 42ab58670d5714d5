import type { Redis, RedisOptions } from 'ioredis';
import { EXIT, ExpectedFailure } from '../exit-codes.ts';
import { type Logger, silentLogger } from '../log.ts';
import { scrubString } from '../secrets.ts';

/**
 * How each kind of process talks to Redis, and how its trouble is reported.
 *
 * - A command (`sync`, `status`, …) must fail within seconds when Redis is down: a bounded PING
 *   before any work (`ensureRedisReachable`), few reconnect attempts, and a command waits for at
 *   most two reconnections before it is refused.
 * - The worker rides out a Redis restart: its connections reconnect every 2 s at most, for ever;
 *   BullMQ's blocking connections keep `maxRetriesPerRequest: null` (src/queue/queues.ts), and the
 *   worker's own client (rate limiter, token cache) waits through about 30 s of outage before a
 *   command fails (the job then fails and BullMQ retries it).
 * - Every connection's errors go to one `RedisWatch` per Redis: one line when Redis becomes
 *   unreachable, one when it is back, the details of each attempt at debug level only.
 */

/** host:port of a Redis URL; never its credentials. */
export function redisHost(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || '127.0.0.1'}:${parsed.port || '6379'}`;
  } catch {
    return 'REDIS_URL';
  }
}

/** Reconnect soon after Redis is back: 100 ms, 200 ms, … at most every 2 s. */
export function reconnectSoon(times: number): number {
  return Math.min(times * 100, 2_000);
}

/** A command's client: gives up after about 2 s of failed reconnects (then the command fails). */
export function commandRedisOptions(): RedisOptions {
  return {
    connectTimeout: 3_000,
    maxRetriesPerRequest: 2,
    retryStrategy: (times) => (times > 6 ? null : Math.min(times * 150, 600)),
  };
}

/** The worker's own client: reconnects for ever; one command waits through ~30 s of outage. */
export function workerRedisOptions(): RedisOptions {
  return { connectTimeout: 5_000, maxRetriesPerRequest: 20, retryStrategy: reconnectSoon };
}

export type RedisTrouble = 'unreachable' | 'credentials' | 'other';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
// The last two: REDIS_URL points at something that does not speak Redis.
const CONNECTION_MESSAGES =
  /Connection is closed|Stream isn't writeable|max retries per request|connect ETIMEDOUT|^LOADING|Socket closed|Unknown RESP type|Protocol error/i;
const CREDENTIAL_MESSAGES = /^(WRONGPASS|NOAUTH|NOPERM)\b/;

function chain(error: unknown): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && out.length < 5) {
    out.push(current as Record<string, unknown>);
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

/** What an ioredis (or BullMQ) error says about the connection. */
export function classifyRedisError(error: unknown): RedisTrouble {
  const links = chain(error);
  if (links.some((e) => CREDENTIAL_MESSAGES.test(String(e.message ?? '')))) return 'credentials';
  const unreachable = links.some(
    (e) =>
      CONNECTION_CODES.has(String(e.code ?? '')) ||
      e.name === 'MaxRetriesPerRequestError' ||
      CONNECTION_MESSAGES.test(String(e.message ?? '')),
  );
  return unreachable ? 'unreachable' : 'other';
}

/** The first line of an error's message, scrubbed: "connect ECONNREFUSED 127.0.0.1:1". */
export function redisCause(error: unknown): string {
  const links = chain(error);
  // The innermost connection error names the cause best ("connect ECONNREFUSED …").
  const best =
    links.find((e) => CONNECTION_CODES.has(String(e.code ?? ''))) ??
    links.find((e) => CREDENTIAL_MESSAGES.test(String(e.message ?? ''))) ??
    links.find((e) => CONNECTION_MESSAGES.test(String(e.message ?? ''))) ??
    links[0];
  const message = best ? String(best.message ?? best) : String(error);
  return scrubString(message.split('\n')[0]!.trim()) || 'no answer';
}

/** Redis cannot be used: a command stops with exit 69 (78 when the credentials are refused). */
export class RedisUnavailableError extends ExpectedFailure {
  readonly trouble: Exclude<RedisTrouble, 'other'>;
  override readonly exitCode: number;
  constructor(
    readonly host: string,
    cause: unknown,
    trouble?: Exclude<RedisTrouble, 'other'>,
  ) {
    const kind = trouble ?? (classifyRedisError(cause) === 'credentials' ? 'credentials' : 'unreachable');
    super(
      kind === 'credentials'
        ? `Redis at ${host} refused the user name or password in REDIS_URL (${redisCause(cause)}).`
        : `Redis at ${host} is unavailable (${redisCause(cause)}); start redis-server there or point REDIS_URL at a running Redis.`,
      { cause },
    );
    this.name = 'RedisUnavailableError';
    this.trouble = kind;
    this.exitCode = kind === 'credentials' ? EXIT.config : EXIT.unavailable;
  }
}

/** Resolves with the value, or rejects after `ms`; the work itself is not cancelled. */
function within<T>(work: Promise<T>, ms: number, onLate: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(onLate()), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * A bounded PING before a command does any work: a Redis that is down, unreachable or refuses
 * the credentials is reported within `timeoutMs` as a RedisUnavailableError naming the host.
 */
export async function ensureRedisReachable(redis: Redis, url: string, timeoutMs = 5_000): Promise<void> {
  let lastError: unknown;
  const remember = (error: unknown) => {
    lastError = error;
  };
  redis.on('error', remember);
  try {
    await within(redis.ping(), timeoutMs, () => new Error(`no answer within ${timeoutMs / 1000} s`));
  } catch (error) {
    // The connection's own error ("connect ECONNREFUSED …") says more than the command's.
    const cause = lastError ?? error;
    throw new RedisUnavailableError(
      redisHost(url),
      cause,
      classifyRedisError(cause) === 'credentials' ? 'credentials' : 'unreachable',
    );
  } finally {
    redis.off('error', remember);
  }
}

/** Closes a client without waiting on a Redis that is not there. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  await within(redis.quit(), 2_000, () => new Error('quit timed out')).catch(() => redis.disconnect());
}

/**
 * Reports the trouble of every connection to one Redis: the first connection error of an outage
 * is one warning naming the host and the cause, Redis coming back is one line with the outage's
 * length; every attempt in between is logged at debug level (with its scrubbed error). Errors
 * that are not about the connection are logged as errors.
 */
export class RedisWatch {
  private downSince: number | null = null;
  private downKind: RedisTrouble | null = null;
  private log: Logger = silentLogger;
  /** Commands say nothing at warn level: their failure is the one line they print. */
  private announce = false;

  constructor(readonly host: string) {}

  useLog(log: Logger, options: { announce: boolean }): this {
    if (this.log === silentLogger) this.log = log;
    this.announce ||= options.announce;
    return this;
  }

  get isDown(): boolean {
    return this.downSince !== null;
  }

  /** `otherwise` is the message of an error that is not about the connection. */
  error(error: unknown, context: Record<string, unknown> = {}, otherwise = 'Redis error'): void {
    const trouble = classifyRedisError(error);
    if (trouble === 'other') {
      if (this.announce) this.log.error({ ...context, err: error }, otherwise);
      else this.log.debug({ ...context, err: error }, otherwise);
      return;
    }
    this.log.debug({ ...context, redis: this.host, err: error }, 'Redis connection error');
    // One line per outage, and one more if it turns out the credentials are refused (the
    // connections were dropped, then the password changed); a drop never says it again.
    if (this.downSince !== null && (this.downKind === trouble || trouble === 'unreachable')) return;
    this.downSince ??= Date.now();
    this.downKind = trouble;
    const line =
      trouble === 'credentials'
        ? 'Redis refused the user name or password in REDIS_URL'
        : 'Redis is unreachable; retrying until it is back';
    const fields = { redis: this.host, cause: redisCause(error) };
    if (this.announce) this.log.warn(fields, line);
    else this.log.debug(fields, line);
  }

  ready(): void {
    if (this.downSince === null) return;
    const downForMs = Date.now() - this.downSince;
    this.downSince = null;
    this.downKind = null;
    const fields = { redis: this.host, downForMs };
    if (this.announce) this.log.warn(fields, 'Redis is reachable again');
    else this.log.debug(fields, 'Redis is reachable again');
  }

  /** Follows one ioredis client: its errors and its reconnections. */
  attach(redis: Pick<Redis, 'on'>, context: Record<string, unknown> = {}): void {
    redis.on('error', (error: unknown) => this.error(error, context));
    redis.on('ready', () => this.ready());
  }
}

const watches = new Map<string, RedisWatch>();

/**
 * The process's watch of the Redis at `url` (one per host, shared by every connection to it).
 * The first caller with a logger gives it its logger; `announce` makes outages warnings.
 */
export function redisWatch(url: string, log?: Logger, options: { announce?: boolean } = {}): RedisWatch {
  const host = redisHost(url);
  let watch = watches.get(host);
  if (!watch) {
    watch = new RedisWatch(host);
    watches.set(host, watch);
  }
  if (log) watch.useLog(log, { announce: options.announce ?? true });
  return watch;
}

/**
 * True for errors only ioredis raises about its connection (a command refused after the
 * reconnects, a closed or unwritable connection, refused credentials): a connection refused by
 * something else (Postgres, the platform) is not one.
 */
export function isRedisFailure(error: unknown): boolean {
  return chain(error).some(
    (e) =>
      e.name === 'MaxRetriesPerRequestError' ||
      /^(WRONGPASS|NOAUTH)\b|^Connection is closed\.|^Stream isn't writeable/.test(String(e.message ?? '')),
  );
}
