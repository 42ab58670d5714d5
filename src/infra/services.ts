import { resolve } from 'node:path';
import type { Config } from '../config.ts';
import { ConfigError } from '../config.ts';
import type { Logger } from '../log.ts';
import { startSharedEmbeddedRedis } from './embedded-redis.ts';
import type { ManagedService } from './managed-service.ts';

export interface Services {
  databaseUrl: string;
  redisUrl: string;
  /** Stops what this process started (in reverse order); idempotent. */
  stop(): Promise<void>;
}

/**
 * PostgreSQL and Redis for this process: the configured URLs when given, otherwise the embedded
 * servers of this checkout (EMBEDDED_DATA_DIR), shared with its other ledgersync processes. Either way the rest of the program sees two URLs: one code path for both.
 */
export async function provideServices(
  config: Pick<Config, 'DATABASE_URL' | 'REDIS_URL' | 'EMBEDDED_DATA_DIR'>,
  log: Logger,
): Promise<Services> {
  const started: ManagedService[] = [];
  try {
    const start = async (starting: Promise<ManagedService>): Promise<string> => {
      const service = await starting;
      started.push(service);
      return service.url;
    };
    const databaseUrl: string =
      config.DATABASE_URL ??
      (await start(
        (await embeddedPostgres()).startEmbeddedPostgres(resolve(config.EMBEDDED_DATA_DIR, 'pg'), log),
      ));
    // Shared by the processes of this checkout, like the PostgreSQL: one rate budget, one set of
    // queues for a `sync` run and the worker.
    const redisUrl: string =
      config.REDIS_URL ??
      (await start(startSharedEmbeddedRedis(resolve(config.EMBEDDED_DATA_DIR, 'redis'), log)));
    let stopped = false;
    return {
      databaseUrl,
      redisUrl,
      async stop() {
        if (stopped) return;
        stopped = true;
        for (const service of started.reverse()) if (service.owned) await service.stop();
      },
    };
  } catch (error) {
    for (const service of started.reverse()) if (service.owned) await service.stop().catch(() => undefined);
    throw error;
  }
}

/**
 * The embedded PostgreSQL, loaded only when DATABASE_URL is unset. The production image leaves
 * its binaries out (an optional dependency), so there an unset DATABASE_URL is a clear
 * configuration error rather than a missing-module crash.
 */
async function embeddedPostgres(): Promise<typeof import('./embedded-postgres.ts')> {
  try {
    return await import('./embedded-postgres.ts');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
      throw new ConfigError([
        'DATABASE_URL: required here, because this installation has no embedded PostgreSQL (a production build leaves it out)',
      ]);
    throw error;
  }
}
