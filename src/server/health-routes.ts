import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Sql } from 'postgres';

/** What /readyz asks of a queue: the state of its own Redis connection. */
interface QueueClient {
  getBackend(): { readonly client: Promise<{ readonly status: string }> };
}

export interface HealthDeps {
  sql: Sql;
  redis: Pick<Redis, 'ping'>;
  /**
   * The queues webhooks and schedules add jobs through. Each reconnects on its own after a Redis
   * outage, so Redis is ready only when every queue's connection is ready too: a /readyz that
   * pinged the shared client alone said ready while an add still failed (503 to a redelivered
   * webhook).
   */
  queues?: { all(): readonly QueueClient[] };
  /** Each dependency must answer within this for /readyz to say ready. */
  checkTimeoutMs?: number;
}

async function reachable(check: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  // A check that throws at once counts as unreachable too, not as a failed request.
  const probe = Promise.resolve()
    .then(check)
    .then(
      () => true,
      () => false,
    );
  return Promise.race([probe, timeout]).finally(() => clearTimeout(timer));
}

/** The shared client answers a PING and every queue's own connection is ready again. */
function pingRedis(deps: HealthDeps): Promise<unknown> {
  const queueReady = async (queue: QueueClient) => {
    const { status } = await queue.getBackend().client;
    if (status !== 'ready') throw new Error(`queue connection ${status}`);
  };
  return Promise.all([deps.redis.ping(), ...(deps.queues?.all() ?? []).map(queueReady)]);
}

/** /healthz: the process is up. /readyz: Postgres and Redis answer, so work can be taken. */
export function healthRoutes(deps: HealthDeps) {
  const timeoutMs = deps.checkTimeoutMs ?? 1_000;
  return async (app: FastifyInstance) => {
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (_request, reply) => {
      const [postgres, redis] = await Promise.all([
        reachable(() => deps.sql`select 1`, timeoutMs),
        reachable(() => pingRedis(deps), timeoutMs),
      ]);
      const body = { postgres: postgres ? 'ok' : 'unreachable', redis: redis ? 'ok' : 'unreachable' };
      return reply.code(postgres && redis ? 200 : 503).send(body);
    });
  };
}
