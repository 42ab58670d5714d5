// The machine's side: embedded PostgreSQL and Redis, ports, file locks, process checks, heap
// settings and shutdown. Code outside this folder imports it through this file.
export { startEmbeddedPostgres } from './embedded-postgres.ts';
export { RedisMissingError, startEmbeddedRedis } from './embedded-redis.ts';
export { withFileLock } from './file-lock.ts';
export { freePort } from './free-port.ts';
export { HEAP_FLAGS } from './heap-flags.ts';
export type { ManagedService } from './managed-service.ts';
export { ensurePlatformReachable, hostOf, PlatformUnreachableError } from './platform-reachable.ts';
export { processAlive } from './process-alive.ts';
export {
  classifyRedisError,
  closeRedis,
  commandRedisOptions,
  ensureRedisReachable,
  isRedisFailure,
  RedisUnavailableError,
  type RedisWatch,
  reconnectSoon,
  redisCause,
  redisHost,
  redisWatch,
  workerRedisOptions,
} from './redis-connection.ts';
export { provideServices, type Services } from './services.ts';
export { onShutdown, runCleanups } from './shutdown.ts';
