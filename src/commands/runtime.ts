import postgres, { type Sql } from 'postgres';
import { migrateAll } from '../../db/runner.ts';
import { databaseUnavailableMessage, guardTransactions, isDatabaseUnavailable } from '../app/database.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { hostOf, PlatformUnreachableError } from '../infra/platform-reachable.ts';
import { isRedisFailure, RedisUnavailableError, redisHost } from '../infra/redis-connection.ts';
import { provideServices, type Services } from '../infra/services.ts';
import { onShutdown, runCleanups } from '../infra/shutdown.ts';
import { createLogger, type Logger } from '../log.ts';
import { scrubString } from '../secrets.ts';

/** Exit codes scripts can rely on (README "Exit codes"). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  /** Some objects were reported as failed; the run itself completed. */
  partial: 3,
  unavailable: 69,
  config: 78,
} as const;

export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

export interface Runtime {
  config: Config;
  log: Logger;
  services: Services;
  sql: Sql;
  /** Migrations this process applied at start-up. */
  migrated: string[];
}

export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`ledgersync: ${error.message}\n`);
      process.exit(EXIT.config);
    }
    throw error;
  }
}

/** Loads config, provides Postgres and Redis, runs fn, and always cleans up. */
export async function withRuntime(fn: (runtime: Runtime) => Promise<number | undefined>): Promise<never> {
  const config = loadConfigOrExit();
  const log = createLogger({ level: config.LOG_LEVEL });
  let exitCode: number = EXIT.ok;
  let redisUrl = config.REDIS_URL;
  try {
    const services = await provideServices(config, log);
    redisUrl = services.redisUrl;
    onShutdown(() => services.stop(), log);
    // The worker's tables are unqualified: the pool works in DATABASE_SCHEMA. Its transactions
    // survive the database going away (src/app/database.ts).
    const sql = guardTransactions(
      postgres(services.databaseUrl, {
        max: 10,
        onnotice: () => {},
        connection: { search_path: config.DATABASE_SCHEMA },
      }),
    );
    onShutdown(() => sql.end({ timeout: 5 }), log);
    // Pending migrations are applied first (concurrent-safe), so no command meets a missing table.
    const { applied } = await migrateAll(sql, {
      schema: config.DATABASE_SCHEMA,
      ledgerSchema: config.ERP === 'ledger' ? config.LEDGER_SCHEMA : undefined,
      log,
    });
    exitCode = (await fn({ config, log, services, sql, migrated: applied })) ?? EXIT.ok;
  } catch (error) {
    exitCode = reportFailure(error, log, redisUrl, config.PLATFORM_BASE_URL);
  }
  await runCleanups();
  process.exit(exitCode);
}

/**
 * A Redis that is down or refuses the credentials, met before the work (the PING of withApp) or
 * during it (a command refused after its reconnects): one line naming the host and the cause,
 * never a stack; the error itself goes to the log at debug level.
 */
function redisFailure(error: unknown, redisUrl: string | undefined): RedisUnavailableError | null {
  if (error instanceof RedisUnavailableError) return error;
  if (redisUrl && isRedisFailure(error)) return new RedisUnavailableError(redisHost(redisUrl), error);
  return null;
}

function reportFailure(
  error: unknown,
  log: Logger,
  redisUrl: string | undefined,
  platformUrl: string | undefined,
): number {
  const redis = redisFailure(error, redisUrl);
  if (redis) {
    log.debug({ err: error }, 'Redis unavailable');
    process.stderr.write(`ledgersync: ${redis.message}\n`);
    return redis.trouble === 'credentials' ? EXIT.config : EXIT.unavailable;
  }
  if (error instanceof CommandError) {
    process.stderr.write(`ledgersync: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`ledgersync: ${error.message}\n`);
    return EXIT.config;
  }
  if (error instanceof Error && error.name === 'PlatformNotConfiguredError') {
    process.stderr.write(`ledgersync: ${error.message}\n`);
    return EXIT.config;
  }
  if (error instanceof Error && error.name === 'NoConnectionError') {
    process.stderr.write(`ledgersync: ${error.message}\n`);
    return EXIT.failed;
  }
  if (error instanceof PlatformUnreachableError) {
    process.stderr.write(`ledgersync: ${error.message}\n`);
    return EXIT.unavailable;
  }
  if (error instanceof Error && error.name === 'NetworkError' && platformUrl) {
    // The platform stopped answering after the client's retries: what was done is kept.
    log.debug({ err: error }, 'platform unreachable');
    const host = hostOf(platformUrl);
    process.stderr.write(
      `ledgersync: the platform at ${host} did not answer (${scrubString(error.message)}); what was done before is kept, run the command again once it answers.\n`,
    );
    return EXIT.unavailable;
  }
  if (error instanceof Error && error.name === 'RedisMissingError') {
    process.stderr.write(`ledgersync: ${error.message}\n`);
    return EXIT.unavailable;
  }
  if (isDatabaseUnavailable(error)) {
    // README "Exit codes": a service it needs is unavailable. The outbox and the sync ledger
    // keep what was done; the next run carries on from there.
    log.debug({ err: error }, 'PostgreSQL unavailable');
    process.stderr.write(`ledgersync: ${databaseUnavailableMessage(error)}\n`);
    return EXIT.unavailable;
  }
  log.error({ err: error }, 'command failed');
  process.stderr.write(
    `ledgersync: ${scrubString(error instanceof Error ? error.message : String(error))}\n`,
  );
  return EXIT.failed;
}
