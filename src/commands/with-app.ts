import { type AppContext, createAppContext, endpointFromConfig, resolveConnection } from '../app/index.ts';
import { ensurePlatformReachable, ensureRedisReachable } from '../infra/index.ts';
import type { Runtime } from './runtime.ts';

/**
 * The app context for one command on the runtime's pool, closed whatever happens. Redis is
 * checked first with a bounded PING, so a command against a Redis that is down or refuses the
 * credentials stops within seconds with one line naming the host (exit 69, or 78 for
 * credentials) instead of waiting for it; then the platform's host, with one bounded TCP
 * connection (exit 69 with one line naming it).
 */
export async function withApp<T>(runtime: Runtime, fn: (app: AppContext) => Promise<T>): Promise<T> {
  const { config, log, sql, services } = runtime;
  const endpoint = endpointFromConfig(config);
  const app = createAppContext({
    config,
    log,
    sql,
    redisUrl: services.redisUrl,
    endpoint,
    redisRole: 'command',
  });
  try {
    await ensureRedisReachable(app.redis, services.redisUrl);
    await ensurePlatformReachable(endpoint.baseUrl);
    return await fn(app);
  } finally {
    await app.close();
  }
}

/** withApp, plus the connection the worker syncs (PLATFORM_CONNECTION_ID, or the active one). */
export function withConnection<T>(
  runtime: Runtime,
  fn: (app: AppContext, connectionId: string) => Promise<T>,
): Promise<T> {
  return withApp(runtime, async (app) =>
    fn(app, await resolveConnection(app.platform, runtime.sql, runtime.config.PLATFORM_CONNECTION_ID)),
  );
}
