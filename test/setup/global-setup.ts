import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { ManagedService } from '../../src/infra/index.ts';
import { startEmbeddedPostgres, startEmbeddedRedis } from '../../src/infra/index.ts';
import { createLogger } from '../../src/log.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
  }
}

const log = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'warn', pretty: false });

function dockerEngineReachable(): boolean {
  return Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
}

/** Real containers where a Docker engine runs; testcontainers is loaded only then. */
async function fromContainers(): Promise<{ services: ManagedService[] }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const pg = await new GenericContainer('postgres:15')
    .withEnvironment({ POSTGRES_PASSWORD: 'ledgersync', POSTGRES_DB: 'ledgersync' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
    .start();
  const redis = await new GenericContainer('redis:7').withExposedPorts(6379).start();
  const pgUrl = `postgres://postgres:ledgersync@${pg.getHost()}:${pg.getMappedPort(5432)}/ledgersync`;
  const redisUrl = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
  return {
    services: [
      { url: pgUrl, owned: true, stop: async () => void (await pg.stop()) },
      { url: redisUrl, owned: true, stop: async () => void (await redis.stop()) },
    ],
  };
}

/**
 * Provides one PostgreSQL and one Redis to every test file: DATABASE_URL / REDIS_URL when given,
 * containers when a Docker engine is reachable, else the same embedded servers the CLI starts.
 * Files isolate themselves inside them (a schema, a key prefix and queue names of their own).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started: ManagedService[] = [];
  let databaseUrl = process.env.DATABASE_URL;
  let redisUrl = process.env.REDIS_URL;
  if (
    (!databaseUrl || !redisUrl) &&
    dockerEngineReachable() &&
    process.env.LEDGERSYNC_NO_CONTAINERS !== '1'
  ) {
    try {
      const { services } = await fromContainers();
      started.push(...services);
      databaseUrl ??= services[0]!.url;
      redisUrl ??= services[1]!.url;
    } catch (error) {
      log.warn({ err: error }, 'Docker engine not usable; falling back to embedded servers');
    }
  }
  if (!databaseUrl) {
    const pg = await startEmbeddedPostgres(resolve('.ledgersync', 'test-pg'), log);
    started.push(pg);
    databaseUrl = pg.url;
  }
  if (!redisUrl) {
    const redis = await startEmbeddedRedis(log);
    started.push(redis);
    redisUrl = redis.url;
  }
  project.provide('databaseUrl', databaseUrl);
  project.provide('redisUrl', redisUrl);
  return async () => {
    for (const service of started.reverse()) if (service.owned) await service.stop();
  };
}
