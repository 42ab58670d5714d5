import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import postgres, { type Sql } from 'postgres';
import { provideServices, type Services } from '../../src/infra/index.ts';
import { createLogger, type Logger } from '../../src/log.ts';
import { postmasterPid } from './process-cpu.ts';
import { REPO_ROOT } from './spawn-ts.ts';

/** What every scenario shares: the services of the run, its mode, and where profiles go. */
export interface BenchContext {
  quick: boolean;
  /** Short id of this run, part of every schema and Redis prefix it creates. */
  runId: string;
  databaseUrl: string;
  redisUrl: string;
  /** A pool without a search_path, for migrations, seeding and clean-up. */
  admin: Sql;
  log: Logger;
  /** Folder for CPU profiles of this run (ignored by git). */
  profileDir: string;
  /** Profile the worker child of every scenario (--cpu-prof), not only where a target is missed. */
  profileAll: boolean;
  /** Keep each scenario's schemas and Redis keys after it ran. */
  keep: boolean;
  /** The embedded PostgreSQL's postmaster, to measure its CPU; null for an external server. */
  postgresPid: number | null;
}

export interface BenchServices {
  context: BenchContext;
  close(): Promise<void>;
}

/**
 * Postgres and Redis for the whole run: DATABASE_URL / REDIS_URL when set, else the embedded
 * servers (data under .ledgersync/bench, apart from the CLI's and the tests').
 */
export async function openBenchServices(options: {
  quick: boolean;
  profileAll: boolean;
  keep: boolean;
}): Promise<BenchServices> {
  const log = createLogger({
    level: process.env.BENCH_LOG_LEVEL ?? 'warn',
    pretty: false,
    destination: process.stderr,
  });
  const dataDir = join(REPO_ROOT, '.ledgersync', 'bench');
  const services: Services = await provideServices(
    { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL, EMBEDDED_DATA_DIR: dataDir },
    log,
  );
  const admin = postgres(services.databaseUrl, { max: 4, onnotice: () => {} });
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  return {
    context: {
      ...options,
      runId,
      databaseUrl: services.databaseUrl,
      redisUrl: services.redisUrl,
      admin,
      log,
      profileDir: join(dataDir, 'profiles', runId),
      postgresPid: process.env.DATABASE_URL ? null : postmasterPid(join(dataDir, 'pg')),
    },
    async close() {
      await admin.end({ timeout: 5 });
      await services.stop();
    },
  };
}
