import postgres, { type Sql } from 'postgres';
import { migrateAll } from '../../db/runner.ts';
import { guardTransactions } from '../app/index.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { readEnvFile } from '../env-file.ts';
import { EXIT, ExpectedFailure } from '../exit-codes.ts';
import { onShutdown, provideServices, runCleanups, type Services } from '../infra/index.ts';
import { createLogger, type Logger } from '../log.ts';
import { reportFailure } from './report-failure.ts';

/** A command's own expected failure: its message on stderr, its exit code (1 unless given). */
export class CommandError extends ExpectedFailure {
  constructor(
    message: string,
    override readonly exitCode: number = EXIT.failed,
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

/** The configuration: the process environment, over the `.env` file of the working directory. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig({ ...readEnvFile(), ...process.env });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`ledgersync: ${error.message}\n`);
      process.exit(error.exitCode);
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
  let databaseUrl = config.DATABASE_URL;
  try {
    const services = await provideServices(config, log);
    redisUrl = services.redisUrl;
    databaseUrl = services.databaseUrl;
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
    exitCode = reportFailure(error, log, redisUrl, config.PLATFORM_BASE_URL, databaseUrl);
  }
  await runCleanups();
  process.exit(exitCode);
}
