import type { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Sql } from 'postgres';
import { cachedRead, type StatusReport, statusReport } from '../../operations/index.ts';
import { latestMigrationJob, QUEUE_NAMES } from '../../queue/index.ts';
import { scrubString } from '../../secrets.ts';
import { connectionAfterSwitches, migrationProgress } from '../../sync/connection-migration/index.ts';
import { renderStatusPage } from './status-page.ts';

export interface StatusRouteDeps {
  sql: Sql;
  connectionId: string;
  /** The worker's queues: their jobs and, through their connection, the workers' heartbeats. */
  queues: Queue[];
  /** Whether a request signed in with the cookie (to offer sign-out). */
  signedIn: (request: FastifyRequest) => boolean;
  /** Reports are reused this long: reloads and several open tabs cost one read. */
  cacheMs?: number;
  refreshSeconds?: number;
  /** PLATFORM_GRANT=authorization_code: whose consent the banner judges. */
  grantClientId?: string;
}

/** No script, no outside resource: the page is text, a table and inline style. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .header('content-security-policy', PAGE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
}

/**
 * Messages come from the ERP and the platform: anything secret- or card-shaped in them is masked,
 * as in the logs. Ids are left alone (a uuid can look like a card number to the masking).
 */
function scrubbed(report: StatusReport): StatusReport {
  return {
    ...report,
    kinds: report.kinds.map((k) => ({
      ...k,
      topReasons: k.topReasons.map((r) => ({ ...r, message: scrubString(r.message) })),
    })),
    recentFailures: report.recentFailures.map((f) => ({ ...f, message: scrubString(f.message ?? '') })),
  };
}

/**
 * GET /status (HTML) and /status.json: the report `ledgersync status` prints; messages scrubbed,
 * and everything escaped in the page.
 */
export function statusRoutes(deps: StatusRouteDeps) {
  const report = cachedRead(
    async () => {
      // After the customer switched connections (a recorded migration), the one synced now.
      const connectionId = (await connectionAfterSwitches(deps.sql, deps.connectionId)) ?? deps.connectionId;
      return scrubbed(
        await statusReport(deps.sql, connectionId, {
          queues: deps.queues,
          ...(deps.grantClientId ? { grantClientId: deps.grantClientId } : {}),
        }),
      );
    },
    deps.cacheMs ?? 3_000,
    15_000,
  );
  const migrationQueue = deps.queues.find((q) => q.name === QUEUE_NAMES.migration);
  const migration = cachedRead(
    () =>
      migrationProgress(deps.sql, migrationQueue ? { job: () => latestMigrationJob(migrationQueue) } : {}),
    deps.cacheMs ?? 3_000,
    15_000,
  );
  return async (app: FastifyInstance) => {
    app.get('/status.json', async (_request, reply) =>
      pageHeaders(reply).send({ ...(await report()), migration: await migration() }),
    );
    app.get('/status', async (request, reply) => {
      const page = renderStatusPage(await report(), {
        migration: await migration(),
        now: new Date(),
        refreshSeconds: deps.refreshSeconds ?? 30,
        signedIn: deps.signedIn(request),
      });
      return pageHeaders(reply).type('text/html; charset=utf-8').send(page);
    });
  };
}
