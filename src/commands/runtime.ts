import postgres, { type Sql } from 'postgres';
import { migrateAll } from '../../db/runner.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { provideServices, type Services } from '../infra/services.ts';
import { onShutdown, runCleanups } from '../infra/shutdown.ts';
import { createLogger, type Logger } from '../log.ts';

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
  try {
    const services = await provideServices(config, log);
    onShutdown(() => services.stop(), log);
    // The worker's tables are unqualified: the pool works in DATABASE_SCHEMA.
    const sql = postgres(services.databaseUrl, {
      max: 10,
      onnotice: () => {},
      connection: { search_path: config.DATABASE_SCHEMA },
    });
    onShutdown(() => sql.end({ timeout: 5 }), log);
    // Pending migrations are applied first (concurrent-safe), so no command meets a missing table.
    const { applied } = await migrateAll(sql, {
      schema: config.DATABASE_SCHEMA,
      ledgerSchema: config.ERP === 'ledger' ? config.LEDGER_SCHEMA : undefined,
      log,
    });
    exitCode = (await fn({ config, log, services, sql, migrated: applied })) ?? EXIT.ok;
  } catch (error) {
    exitCode = reportFailure(error, log);
  }
  await runCleanups();
  process.exit(exitCode);
}

function reportFailure(error: unknown, log: Logger): number {
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
  if (error instanceof Error && error.name === 'RedisMissingError') {
    process.stderr.write(`ledgersync: ${error.message}\n`);
    return EXIT.unavailable;
  }
  log.error({ err: error }, 'command failed');
  process.stderr.write(`ledgersync: ${error instanceof Error ? error.message : String(error)}\n`);
  return EXIT.failed;
}
