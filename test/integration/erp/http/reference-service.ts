import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Sql } from 'postgres';
import type { HttpErpCredentials } from '../../../../src/erp/http/auth.ts';
import { buildErpService } from '../../../../src/erp/http/serve.ts';
import { createErp } from '../../../../src/erp/index.ts';
import { silentLogger } from '../../../../src/log.ts';

/** The reference service over a ledger schema, listening on 127.0.0.1; returns its base URL. */
export async function startReferenceService(
  sql: Sql,
  schema: string,
  options: HttpErpCredentials & { pageSize?: number } = {},
): Promise<{ url: string; app: FastifyInstance }> {
  const erp = createErp({ kind: 'ledger', sql, schema }, { log: silentLogger });
  const app = buildErpService({ erp, log: silentLogger, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, app };
}
