import { Redis } from 'ioredis';
import type { Sql } from 'postgres';
import type { Config } from '../config.ts';
import { createErp, type ErpAdapter, type ErpConfig, trytonOptionsFrom } from '../erp/index.ts';
import { EXIT, ExpectedFailure } from '../exit-codes.ts';
import { closeRedis, commandRedisOptions, redisWatch, workerRedisOptions } from '../infra/index.ts';
import type { Logger } from '../log.ts';
import {
  baseUrlProblem,
  createPlatformClient,
  type PlatformClient,
  type PlatformClientOptions,
  reencryptStoredTokens,
  TokenCipher,
  type TokenRekey,
} from '../platform/index.ts';
import type { SyncPlatform } from '../sync/objects/index.ts';
import { syncPlatformFrom } from '../sync/objects/index.ts';
import { OutboxIdempotencyRecords } from '../sync/reporting/index.ts';
import { guardTransactions } from './database.ts';

export interface PlatformEndpoint {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Everything a job or command needs: one per process, closed on shutdown. */
export interface AppContext {
  config: Config;
  log: Logger;
  sql: Sql;
  redis: Redis;
  platform: PlatformClient;
  syncPlatform: SyncPlatform;
  erp: ErpAdapter;
  close(): Promise<void>;
}

export class PlatformNotConfiguredError extends ExpectedFailure {
  override readonly exitCode = EXIT.config;
  constructor() {
    super(
      'PLATFORM_BASE_URL is not set. Point it at the platform (…/developer/v1) with PLATFORM_CLIENT_ID and ' +
        'PLATFORM_CLIENT_SECRET, or run the built-in stub (`npx ledgersync stub`) and point it there.',
    );
    this.name = 'PlatformNotConfiguredError';
  }
}

/**
 * A PLATFORM_BASE_URL the platform client cannot use (most often the host alone, without
 * /developer/v1): one line naming the variable, exit 78, before any work.
 */
export class PlatformBaseUrlError extends ExpectedFailure {
  override readonly exitCode = EXIT.config;
  constructor(baseUrl: string, problem: string) {
    const suggestion = suggestedBaseUrl(baseUrl);
    super(
      `PLATFORM_BASE_URL ${problem}: it is the platform's API base` +
        (suggestion ? `, for example ${suggestion}.` : ', ending in /developer/v1.'),
    );
    this.name = 'PlatformBaseUrlError';
  }
}

/** The URL with /developer/v1 added and no credentials, query or fragment, when it parses. */
function suggestedBaseUrl(baseUrl: string): string | null {
  try {
    const url = new URL(baseUrl);
    const path = url.pathname.replace(/\/+$/, '');
    return `${url.origin}${path.endsWith('/developer/v1') ? path : `${path}/developer/v1`}`;
  } catch {
    return null;
  }
}

export function endpointFromConfig(config: Config): PlatformEndpoint {
  if (!config.PLATFORM_BASE_URL || !config.PLATFORM_CLIENT_ID || !config.PLATFORM_CLIENT_SECRET) {
    throw new PlatformNotConfiguredError();
  }
  const problem = baseUrlProblem(config.PLATFORM_BASE_URL);
  if (problem) throw new PlatformBaseUrlError(config.PLATFORM_BASE_URL, problem);
  return {
    baseUrl: config.PLATFORM_BASE_URL,
    clientId: config.PLATFORM_CLIENT_ID,
    clientSecret: config.PLATFORM_CLIENT_SECRET,
  };
}

export function createAppContext(options: {
  config: Config;
  log: Logger;
  sql: Sql;
  redisUrl: string;
  endpoint: PlatformEndpoint;
  /** Called once per platform HTTP attempt (metrics). */
  observe?: PlatformClientOptions['observe'];
  /**
   * `command`: one CLI command, which must fail within seconds when Redis is down (and says so
   * in its one error line, not in warnings); `worker` (the default): a long-running process that
   * rides out a Redis restart and logs one line per outage (src/infra/redis-connection.ts).
   */
  redisRole?: 'command' | 'worker';
}): AppContext {
  const { config, log } = options;
  // Transactions that survive a database restart (src/app/database.ts); the same pool otherwise.
  const sql = guardTransactions(options.sql);
  // Checked before any connection opens: a missing or malformed key is a one-line refusal.
  const grant =
    config.PLATFORM_GRANT === 'authorization_code' ? { sql, cipher: tokenCipherFrom(config) } : null;
  const role = options.redisRole ?? 'worker';
  const redis = new Redis(
    options.redisUrl,
    role === 'command' ? commandRedisOptions() : workerRedisOptions(),
  );
  // Without a listener ioredis prints every reconnect attempt's stack ("Unhandled error event").
  redisWatch(options.redisUrl, log, { announce: role === 'worker' }).attach(redis);
  const platform = createPlatformClient({
    ...options.endpoint,
    ...(options.observe ? { observe: options.observe } : {}),
    scopes: config.PLATFORM_SCOPES,
    requestTimeoutMs: config.PLATFORM_REQUEST_TIMEOUT_MS,
    redis,
    keyPrefix: `${config.QUEUE_PREFIX}:platform`,
    // Beside the outbox, in this database: never a record of another world's sends (F15).
    idempotency: new OutboxIdempotencyRecords(sql, options.endpoint.baseUrl),
    // The Authorization Code grant's tokens live encrypted in this database (src/platform/grant/).
    ...(grant ? { grant } : {}),
    limiter: {
      max: config.RATE_LIMIT_MAX,
      windowMs: config.RATE_LIMIT_WINDOW_MS,
      margin: config.RATE_LIMIT_MARGIN,
      egressId: config.EGRESS_ID,
    },
    log,
  });
  const erp = createErp(erpConfigFrom(config, sql), { log });
  return {
    config,
    log,
    sql,
    redis,
    platform,
    syncPlatform: syncPlatformFrom(platform),
    erp,
    async close() {
      await erp.close();
      await platform.close();
      await closeRedis(redis);
    },
  };
}

/** The cipher of the stored tokens; a missing or malformed key stops here (exit 78, one line). */
export function tokenCipherFrom(config: Config): TokenCipher {
  return TokenCipher.fromConfig(config.TOKEN_ENCRYPTION_KEY, config.TOKEN_ENCRYPTION_OLD_KEYS);
}

/**
 * PLATFORM_GRANT=authorization_code: the stored tokens moved to TOKEN_ENCRYPTION_KEY now, not at a
 * renewal an idle worker may never make (README, rotating TOKEN_ENCRYPTION_KEY); null otherwise.
 */
export function reencryptTokens(app: Pick<AppContext, 'config' | 'sql'>): Promise<TokenRekey | null> {
  if (app.config.PLATFORM_GRANT !== 'authorization_code') return Promise.resolve(null);
  return reencryptStoredTokens(app.sql, tokenCipherFrom(app.config));
}

function erpConfigFrom(config: Config, sql: Sql): ErpConfig {
  switch (config.ERP) {
    case 'tryton':
      return { kind: 'tryton', ...trytonOptionsFrom(config) };
    case 'http':
      return {
        kind: 'http',
        url: config.ERP_HTTP_URL!,
        token: config.ERP_HTTP_TOKEN,
        hmacSecret: config.ERP_HTTP_HMAC_SECRET,
        timeoutMs: config.ERP_HTTP_TIMEOUT_MS,
      };
    case 'hledger':
      return {
        kind: 'hledger',
        url: config.HLEDGER_URL!,
        ...(config.ERP_PUBLIC_URL ? { deepLinkBase: config.ERP_PUBLIC_URL } : {}),
      };
    default:
      return {
        kind: 'ledger',
        sql,
        schema: config.LEDGER_SCHEMA,
        ...(config.ERP_PUBLIC_URL ? { deepLinkBase: config.ERP_PUBLIC_URL } : {}),
      };
  }
}
