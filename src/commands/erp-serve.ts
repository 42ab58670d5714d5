import { buildErpService, createErp } from '../erp/index.ts';
import { EXIT } from '../exit-codes.ts';
import { onShutdown } from '../infra/index.ts';
import type { Runtime } from './runtime.ts';
import { CommandError } from './runtime.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * `ledgersync erp serve`: the built-in ERP in LEDGER_SCHEMA of the worker's database, behind
 * the HTTP ERP contract. Beyond loopback it insists on credentials, as the operator pages do.
 */
export async function serveLedgerErp(
  { config, sql, log }: Pick<Runtime, 'config' | 'sql' | 'log'>,
  listen: { port: number; host: string },
): Promise<void> {
  const credentials = { token: config.ERP_HTTP_TOKEN, hmacSecret: config.ERP_HTTP_HMAC_SECRET };
  if (!LOOPBACK.has(listen.host) && !credentials.token && !credentials.hmacSecret)
    throw new CommandError(
      `erp serve on ${listen.host} (not loopback) needs ERP_HTTP_TOKEN or ERP_HTTP_HMAC_SECRET`,
      EXIT.usage,
    );
  const erp = createErp({ kind: 'ledger', sql, schema: config.LEDGER_SCHEMA }, { log });
  const app = buildErpService({ erp, log, ...credentials });
  onShutdown(async () => {
    await app.close();
    await erp.close();
  }, log);
  const address = await app.listen({ port: listen.port, host: listen.host });
  log.info({ address }, 'serving the built-in ERP over the HTTP ERP contract');
  process.stdout.write(`Serving the built-in ERP (schema ${config.LEDGER_SCHEMA}) at ${address}\n`);
}
