import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Sql } from 'postgres';

export interface HealthDeps {
  sql: Sql;
  redis: Pick<Redis, 'ping'>;
  /** Each dependency must answer within this for /readyz to say ready. */
  checkTimeoutMs?: number;
}

async function reachable(check: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = check().then(
    () => true,
    () => false,
  );
  return Promise.race([probe, timeout]).finally(() => clearTimeout(timer));
}

/** /healthz: the process is up. /readyz: Postgres and Redis answer, so work can be taken. */
export function healthRoutes(deps: HealthDeps) {
  const timeoutMs = deps.checkTimeoutMs ?? 1_000;
  return async (app: FastifyInstance) => {
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (_request, reply) => {
      const [postgres, redis] = await Promise.all([
        reachable(() => deps.sql`select 1`, timeoutMs),
        reachable(() => deps.redis.ping(), timeoutMs),
      ]);
      const body = { postgres: postgres ? 'ok' : 'unreachable', redis: redis ? 'ok' : 'unreachable' };
      return reply.code(postgres && redis ? 200 : 503).send(body);
    });
  };
}
