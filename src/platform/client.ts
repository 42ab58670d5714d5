import { Redis } from 'ioredis';
import type { Sql } from 'postgres';
import { closingController } from '../closing-controller.ts';
import { type Logger, silentLogger } from '../log.ts';
import { DEFAULT_RETRY, type RetryOptions } from './backoff.ts';
import { GrantRenewal } from './grant/grant-renewal.ts';
import { exchangeCode, type GrantAnswer, revokeRefreshToken } from './grant/grant-token-request.ts';
import type { TokenCipher } from './grant/token-cipher.ts';
import {
  HttpTransport,
  type PlatformAttemptEvent,
  type PlatformRequest,
  type PlatformResponse,
} from './http-transport.ts';
import {
  DEFAULT_IDEMPOTENCY_TTL_DAYS,
  type IdempotencyRecords,
  RedisIdempotencyRecords,
} from './idempotency.ts';
import { sendIdempotent } from './idempotent-send.ts';
import {
  DEFAULT_LIMITER,
  type RateLimiterOptions,
  type RateLimiterStats,
  RedisRateLimiter,
} from './rate-limiter.ts';
import { accountingConnectionResource } from './resources/accounting-connection.ts';
import { chartOfAccountsResource } from './resources/chart-of-accounts.ts';
import type { ResourceContext } from './resources/context.ts';
import { entitiesResource } from './resources/entities.ts';
import { readyObjectsResource } from './resources/ready-objects.ts';
import { syncsResource } from './resources/syncs.ts';
import { vendorsResource } from './resources/vendors.ts';
import { webhooksResource } from './resources/webhooks.ts';
import { TokenCache } from './token-cache.ts';
import { requestToken } from './token-request.ts';

export interface PlatformClientOptions {
  /** The API base, ending in /developer/v1 (the real platform or the stub's apiUrl). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Scopes to request (F1), as a list or space separated. */
  scopes: readonly string[] | string;
  /** The Redis holding the shared rate budget and the idempotency records: a connection the
   * caller owns and closes, or a URL (the client then opens and closes its own). */
  redis: Redis | string;
  /** Prefix of every Redis key this client writes (default "ledgersync:platform"). */
  keyPrefix?: string;
  /** F3: max 200 per 10 s per egress IP; margin and windowPadMs absorb network delay. */
  limiter?: Partial<RateLimiterOptions>;
  /** docs/platform.md G8: attempts and backoff (1 s, 2 s, 4 s, ... capped). */
  retry?: Partial<RetryOptions>;
  /** Per attempt; the platform itself gives up at 60 s with a 504 (docs/platform.md G9). */
  requestTimeoutMs?: number;
  log?: Logger;
  /** Where sent idempotency keys are remembered (F15); default: Redis under keyPrefix. */
  idempotency?: IdempotencyRecords;
  idempotencyTtlDays?: number;
  /** Told about every HTTP attempt (method, path, status, duration, permit wait): for metrics. */
  observe?: (event: PlatformAttemptEvent) => void;
  /**
   * The Authorization Code grant (docs/platform.md F45, F46): the access token comes from the
   * consent stored in this database, renewed there; absent: client credentials (F1).
   */
  grant?: { sql: Sql; cipher: TokenCipher };
}

export type { PlatformAttemptEvent };

const DEFAULT_KEY_PREFIX = 'ledgersync:platform';
const DEFAULT_REQUEST_TIMEOUT_MS = 65_000;

interface PlatformClientStats {
  limiter: RateLimiterStats;
  tokensIssued: number;
}

export type PlatformClient = ReturnType<typeof buildClient>;

/** The one way into the platform: every job talks to it through this client. */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  return buildClient(options);
}

function buildClient(options: PlatformClientOptions) {
  const baseUrl = checkedBaseUrl(options.baseUrl);
  const log = options.log ?? silentLogger;
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const ownsRedis = typeof options.redis === 'string';
  const redis = typeof options.redis === 'string' ? new Redis(options.redis) : options.redis;
  // Every attempt in flight listens to this signal (its deadline is chained to it, and removed
  // when the attempt ends).
  const closing = closingController();
  const limiter = new RedisRateLimiter(redis, keyPrefix, { ...DEFAULT_LIMITER, ...options.limiter }, log);
  const transport = new HttpTransport({
    baseUrl,
    limiter,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    log,
    signal: closing.signal,
    observe: options.observe,
  });
  const scopes =
    typeof options.scopes === 'string' ? options.scopes.split(/\s+/).filter(Boolean) : options.scopes;
  const credentials = { clientId: options.clientId, clientSecret: options.clientSecret, scopes };
  const renewal = options.grant ? new GrantRenewal({ ...options.grant, transport, credentials, log }) : null;
  const tokens = new TokenCache((rejected) =>
    renewal ? renewal.accessToken(rejected) : requestToken(transport, credentials, log),
  );
  const records =
    options.idempotency ??
    new RedisIdempotencyRecords(redis, keyPrefix, options.idempotencyTtlDays ?? DEFAULT_IDEMPOTENCY_TTL_DAYS);
  const send = (request: PlatformRequest): Promise<PlatformResponse> => transport.request(request, tokens);
  const ctx: ResourceContext = {
    send,
    sendIdempotent: (key, request) => sendIdempotent(send, records, key, request),
  };
  let closed = false;

  return {
    connection: accountingConnectionResource(ctx),
    chart: chartOfAccountsResource(ctx),
    entities: entitiesResource(ctx),
    objects: readyObjectsResource(ctx),
    syncs: syncsResource(ctx),
    vendors: vendorsResource(ctx),
    webhooks: webhooksResource(ctx),
    /** Any other call, with the same permits, retries and token handling. */
    request: send,
    /**
     * Fetches the access token now (or finds it cached), so a caller that knows it will call the
     * platform soon does not wait for the token round trip then.
     */
    async authenticate(): Promise<void> {
      await tokens.get();
    },
    /** The Authorization Code grant's code, exchanged for the consent's tokens (F45). */
    exchangeCode(consent: { code: string; redirectUri: string; codeVerifier: string }): Promise<GrantAnswer> {
      return exchangeCode(transport, credentials, consent, log);
    },
    /** Ends the grant behind a refresh token that a new consent replaced (F47). */
    revokeRefreshToken(refreshToken: string): Promise<void> {
      return revokeRefreshToken(transport, credentials, refreshToken);
    },
    stats(): PlatformClientStats {
      return { limiter: limiter.stats(), tokensIssued: tokens.issuedCount };
    },
    /** Ends waits and running attempts; quits the Redis connection if the client opened it. */
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      closing.abort(new Error('platform client closed'));
      limiter.close();
      if (ownsRedis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * What is wrong with a platform base URL, or null when it is one: the API's version is in its
 * path (docs/platform.md G32), and requests are resolved under it, so it must end in
 * /developer/v1 and carry nothing a request would drag along. Also checked on PLATFORM_BASE_URL
 * before any work (src/app/app-context.ts), to name the variable.
 */
export function baseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL';
  }
  if (!/\/developer\/v1\/?$/.test(url.pathname)) {
    return `must end in /developer/v1 (got path ${url.pathname})`;
  }
  if (url.search || url.hash || url.username || url.password) {
    return 'must carry no query, fragment or credentials';
  }
  return null;
}

function checkedBaseUrl(value: string): URL {
  const problem = baseUrlProblem(value);
  if (problem) throw new Error(`platform baseUrl ${problem}`);
  return new URL(value);
}
