import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { BeforeHookResult, HookContext, QueueAdapterOptions } from '@bull-board/api/typings/app';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Queues } from '../../queue/index.ts';

const DASHBOARD_PATH = '/admin/queues';

/**
 * The only changes an operator may make from the dashboard (docs/operations.md "Queue
 * dashboard"): retry one failed job, or every failed job of a queue. A sync is idempotent, so a
 * retry is safe. Everything else that changes a queue is refused, whoever asks:
 * - obliterate, empty, clean and job removal would drop the completed jobs whose ids keep a late
 *   replica from running a scheduled window twice (src/queue/queues.ts), and the failed jobs' errors;
 * - adding a job, editing its data, delay or priority, and running or changing a scheduler bypass
 *   the payload checks and the job ids the worker derives;
 * - promoting a delayed job would fire a sync-button watchdog before the deadline and answer rows
 *   still being worked on (docs/platform.md G29);
 * - pause, resume, concurrency and rate limits change how the worker runs for every replica;
 * - retrying a completed job re-runs work that succeeded.
 * Allowed by route template (Bull Board's own), so a route a later version adds is refused too.
 */
const ALLOWED_CHANGES = new Set([
  'put /api/queues/:queueName/:jobId/retry',
  'put /api/queues/:queueName/retry/:queueStatus',
]);

const REFUSED: BeforeHookResult = {
  allow: false,
  status: 403,
  errorKey: 'ERRORS.FORBIDDEN',
  message: 'Not allowed from the ledgersync dashboard: only reading and retrying failed jobs are.',
};

/** Bull Board's `before` hook: reads pass; a change passes only when it retries failed jobs. */
async function dashboardGuard(context: HookContext): Promise<BeforeHookResult> {
  if (context.method === 'get') return { allow: true };
  if (!ALLOWED_CHANGES.has(`${context.method} ${context.route}`)) return REFUSED;
  const { queueName, jobId, queueStatus } = context.request.params as Record<string, string | undefined>;
  if (context.route.endsWith('/retry/:queueStatus'))
    return queueStatus === 'failed' ? { allow: true } : REFUSED;
  // One job: only when it failed (Bull Board itself would also retry a completed one).
  const queue = queueName ? context.request.queues.get(queueName) : undefined;
  const job = queue && jobId ? await queue.getJob(jobId) : null;
  if (!job) return { allow: true }; // Bull Board answers 404 itself
  return (await job.getState()) === 'failed' ? { allow: true } : REFUSED;
}

/**
 * Times in UTC, as on the status page and in the logs: Bull Board formats them with these
 * options, in the browser's time zone unless told otherwise.
 */
const UTC_DATES = {
  short: { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC', timeZoneName: 'short' },
  common: {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  },
  full: {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

/** Bull Board's page links web fonts from Google: an operator page asks nothing of the internet. */
const EXTERNAL_STYLESHEET = /<link\b[^>]*\bhref="https?:\/\/[^"]*"[^>]*>/g;

/**
 * The dashboard's page without its external stylesheet (the fonts fall back to the system's);
 * the policy header keeps any font from elsewhere out should a later Bull Board load one another way.
 */
function withoutExternalFonts(reply: FastifyReply, payload: unknown): unknown {
  reply.header('content-security-policy', "font-src 'self' data:");
  const html = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
  return html && typeof payload === 'string' ? payload.replace(EXTERNAL_STYLESHEET, '') : payload;
}

/**
 * Bull Board for the worker's queues at /admin/queues: jobs by state, their data, progress and
 * errors, and retrying failed jobs (nothing else changes anything, see ALLOWED_CHANGES). It uses
 * the queues' own Redis connections. Mounted inside the operator scope, so its pages and API
 * need the operator token like every operator route.
 */
export function queueDashboard(queues: Queues) {
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  // Retries of completed jobs are hidden in the pages too (the guard refuses them anyway).
  const adapterOptions = { allowRetries: true, allowCompletedRetries: false } as Partial<QueueAdapterOptions>;
  createBullBoard({
    queues: queues.all().map((queue) => new BullMQAdapter(queue, adapterOptions)),
    serverAdapter,
    options: {
      uiConfig: { boardTitle: 'ledgersync queues', dateFormats: UTC_DATES },
      handlerHooks: { before: dashboardGuard },
    },
  });
  return async (app: FastifyInstance) => {
    app.addHook('onSend', async (_request, reply, payload) => withoutExternalFonts(reply, payload));
    await app.register(serverAdapter.registerPlugin(), { prefix: DASHBOARD_PATH });
  };
}
