/**
 * A mirror in its own process, for the kill -9 test: started with child_process.fork
 * (node --import tsx), killed with SIGKILL mid-run by the parent. argv[2] = JSON ChildConfig.
 */
import postgres from 'postgres';
import { createErp } from '../../../../../src/erp/index.ts';
import { silentLogger } from '../../../../../src/log.ts';
import { createPlatformClient } from '../../../../../src/platform/index.ts';
import { mirrorChart } from '../../../../../src/sync/mirror/index.ts';

export interface ChildConfig {
  databaseUrl: string;
  schema: string;
  ledgerSchema: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  redisUrl: string;
  keyPrefix: string;
  connectionId: string;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
  const sql = postgres(config.databaseUrl, {
    max: 4,
    onnotice: () => {},
    connection: { search_path: config.schema },
  });
  const client = createPlatformClient({
    baseUrl: config.apiUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    scopes: ['accounting:read', 'accounting:write'],
    redis: config.redisUrl,
    keyPrefix: config.keyPrefix,
    limiter: { max: 100_000 },
    log: silentLogger,
  });
  try {
    const erp = createErp({ kind: 'ledger', sql, schema: config.ledgerSchema });
    const summary = await mirrorChart({
      sql,
      erp,
      platform: client,
      connectionId: config.connectionId,
      log: silentLogger,
    });
    process.send?.({ type: 'done', writeCalls: summary.writeCalls });
  } finally {
    await client.close();
    await sql.end({ timeout: 5 });
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`mirror child failed: ${String(error)}\n`);
    process.exit(1);
  },
);
