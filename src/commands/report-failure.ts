import {
  databaseRefusalMessage,
  databaseUnavailableMessage,
  isDatabaseUnavailable,
  tokenRefusalMessage,
} from '../app/index.ts';
import { EXIT, ExpectedFailure } from '../exit-codes.ts';
import { hostOf, isRedisFailure, RedisUnavailableError, redisHost } from '../infra/index.ts';
import type { Logger } from '../log.ts';
import { NetworkError } from '../platform/index.ts';
import { scrubString } from '../secrets.ts';

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

/**
 * Writes the one line a failed command leaves on stderr and returns its exit code (README "Exit
 * codes"): an expected failure's class declares its code; anything else is logged and exits 1.
 * `databaseUrl` only names the host in the database's line, when it is known.
 */
export function reportFailure(
  error: unknown,
  log: Logger,
  redisUrl: string | undefined,
  platformUrl: string | undefined,
  databaseUrl?: string,
): number {
  const redis = redisFailure(error, redisUrl);
  if (redis) {
    log.debug({ err: error }, 'Redis unavailable');
    process.stderr.write(`ledgersync: ${redis.message}\n`);
    return redis.exitCode;
  }
  if (error instanceof ExpectedFailure) {
    process.stderr.write(`ledgersync: ${error.message}\n`);
    return error.exitCode;
  }
  // Configuration the platform or PostgreSQL refused (README "Exit codes": 78): the variable is
  // named, its secret never; the error itself goes to the log at debug level.
  const refused = tokenRefusalMessage(error, platformUrl) ?? databaseRefusalMessage(error, databaseUrl);
  if (refused) {
    log.debug({ err: error }, 'configuration refused');
    process.stderr.write(`ledgersync: ${refused}\n`);
    return EXIT.config;
  }
  if (error instanceof NetworkError && platformUrl) {
    // The platform stopped answering after the client's retries: what was done is kept.
    log.debug({ err: error }, 'platform unreachable');
    const host = hostOf(platformUrl);
    process.stderr.write(
      `ledgersync: the platform at ${host} did not answer (${scrubString(error.message)}); what was done before is kept, run the command again once it answers.\n`,
    );
    return EXIT.unavailable;
  }
  if (isDatabaseUnavailable(error)) {
    // README "Exit codes": a service it needs is unavailable. The outbox and the sync ledger
    // keep what was done; the next run carries on from there.
    log.debug({ err: error }, 'PostgreSQL unavailable');
    process.stderr.write(`ledgersync: ${databaseUnavailableMessage(error, databaseUrl)}\n`);
    return EXIT.unavailable;
  }
  log.error({ err: error }, 'command failed');
  process.stderr.write(
    `ledgersync: ${scrubString(error instanceof Error ? error.message : String(error))}\n`,
  );
  return EXIT.failed;
}
