import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance } from 'fastify';
import type { Queues } from '../../jobs/queues.ts';

export const DASHBOARD_PATH = '/admin/queues';

/**
 * Bull Board for the worker's queues at /admin/queues: jobs by state, their data, progress and
 * errors, with retry and clean. It uses the queues' own Redis connections. Mounted inside the
 * operator scope, so its pages and API need the operator token like every operator route.
 */
export function queueDashboard(queues: Queues) {
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: queues.all().map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'ledgersync queues' } },
  });
  return async (app: FastifyInstance) => {
    await app.register(serverAdapter.registerPlugin(), { prefix: DASHBOARD_PATH });
  };
}
