import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../operations/index.ts';

/** GET /metrics: Prometheus text exposition of this process's registry. */
export function metricsRoute(metrics: Metrics) {
  return async (app: FastifyInstance) => {
    app.get('/metrics', async (_request, reply) => {
      const { contentType, body } = await metrics.render();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    });
  };
}
