import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Logger } from '../../log.ts';
import { issuesText } from '../../zod-issues.ts';
import type { ErpAdapter } from '../adapter.ts';
import { ErpError } from '../errors.ts';
import type { ErpWrite, VendorInput } from '../types.ts';
import { type HttpErpCredentials, refusalOf } from './auth.ts';
import { CursorStore } from './cursors.ts';
import { type ChartPath, EntriesEnvelope, SIGNATURE_HEADER } from './wire.ts';

/**
 * The reference service of the HTTP ERP contract (docs/erp-http.md): any ErpAdapter served over
 * HTTP, `ledgersync erp serve` serving the built-in ERP. It checks each request's credentials
 * against the raw body, the request's shape, and leaves everything else (idempotency, refusals
 * per item) to the adapter, which already keeps the ERP contract.
 */

export interface ErpServiceOptions extends HttpErpCredentials {
  erp: ErpAdapter;
  log: Logger;
  /** Chart items per page (default 1000). */
  pageSize?: number;
}

function answerError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).send({ error: { code, message } });
}

export function buildErpService(options: ErpServiceOptions): FastifyInstance {
  const { erp, log } = options;
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024, forceCloseConnections: true });
  const cursors = new CursorStore<unknown>(options.pageSize ?? 1000);
  app.addHook('onClose', async () => cursors.clear());

  // The signature covers the body as sent: keep the text, then parse it.
  const rawBodies = new WeakMap<object, string>();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    rawBodies.set(request, body as string);
    try {
      done(null, body === '' ? undefined : JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('the body is not JSON'), { statusCode: 400 }));
    }
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.url === '/health') return;
    const signature = request.headers[SIGNATURE_HEADER];
    const refusal = refusalOf(
      options,
      {
        authorization: request.headers.authorization,
        signature: typeof signature === 'string' ? signature : undefined,
      },
      rawBodies.get(request) ?? '',
    );
    if (refusal) {
      log.warn({ route: request.routeOptions.url, refusal }, 'ERP service refused a request');
      return answerError(reply, 401, 'UNAUTHORIZED', refusal);
    }
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    // A read the ERP cannot answer now is the client's to retry; anything else is a fault.
    if (error instanceof ErpError && error.category === 'transient')
      return answerError(reply, 503, error.code, error.message);
    if ((error.statusCode ?? 500) < 500)
      return answerError(reply, error.statusCode!, 'BAD_REQUEST', error.message);
    log.error({ err: error, route: request.routeOptions.url }, 'ERP service failed a request');
    return answerError(reply, 500, error instanceof ErpError ? error.code : 'INTERNAL', error.message);
  });

  app.get('/health', async () => ({ ok: true, name: erp.name }));

  const chart: Record<ChartPath, () => AsyncIterable<unknown>> = {
    'gl-accounts': () => erp.glAccounts(),
    'custom-fields': () => erp.customFields(),
    vendors: () => erp.vendors(),
    'tax-rates': () => erp.taxRates(),
    'tax-codes': () => erp.taxCodes(),
  };
  const servePage = async (
    cursor: string | undefined,
    start: () => AsyncIterable<unknown>,
    reply: FastifyReply,
  ) => {
    const page = await cursors.page(cursor ?? null, start);
    if (!page)
      return answerError(reply, 400, 'CURSOR_EXPIRED', 'unknown or expired cursor: start the stream again');
    return page;
  };
  for (const [path, start] of Object.entries(chart)) {
    app.get<{ Querystring: { cursor?: string } }>(`/chart/${path}`, (request, reply) =>
      servePage(request.query.cursor, start, reply),
    );
  }
  app.get<{ Params: { id: string }; Querystring: { cursor?: string } }>(
    '/chart/custom-fields/:id/options',
    (request, reply) => servePage(request.query.cursor, () => erp.fieldOptions(request.params.id), reply),
  );

  app.post('/entries', async (request, reply) => {
    const parsed = EntriesEnvelope.safeParse(request.body);
    if (!parsed.success)
      return answerError(reply, 400, 'BAD_REQUEST', issuesText(parsed.error, { limit: 1 }));
    // Items are checked one by one by the adapter: a malformed one is refused on its own.
    return { results: await erp.postMany(parsed.data.items as ErpWrite[]) };
  });

  app.post('/vendors', async (request, reply) => {
    const parsed = z.looseObject({ kind: z.literal('vendor') }).safeParse(request.body);
    if (!parsed.success)
      return answerError(reply, 400, 'BAD_REQUEST', issuesText(parsed.error, { limit: 1 }));
    return erp.createVendor(parsed.data as VendorInput);
  });

  return app;
}
