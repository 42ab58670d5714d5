// What a sync worker child process of the crash tests does, whichever ERP it writes to: it runs
// the object syncs once against the stub, database schema and Redis its environment names, then
// ends. The child's own file opens its ERP and runs this.

import { DEFAULT_CLIENT } from '@ledgersync/stub';
import postgres, { type Sql } from 'postgres';
import type { ErpAdapter } from '../../src/erp/index.ts';
import { createLogger, type Logger } from '../../src/log.ts';
import { createPlatformClient } from '../../src/platform/index.ts';
import { OBJECT_KINDS, syncObjects, syncPlatformFrom } from '../../src/sync/objects/index.ts';

export const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

/** Runs every object sync (or those KINDS names) once and prints each summary, one JSON line each. */
export async function syncObjectsOnce(openErp: (sql: Sql, log: Logger) => ErpAdapter): Promise<void> {
  const log = createLogger({ level: 'warn', pretty: false });
  const sql = postgres(env('DATABASE_URL'), {
    max: 4,
    onnotice: () => {},
    connection: { search_path: env('SCHEMA') },
  });
  const platform = createPlatformClient({
    baseUrl: env('STUB_API_URL'),
    clientId: DEFAULT_CLIENT.client_id,
    clientSecret: DEFAULT_CLIENT.client_secret,
    scopes:
      'accounting:read accounting:write transactions:read reimbursements:read transfers:read cashbacks:read bills:read',
    redis: env('REDIS_URL'),
    keyPrefix: env('REDIS_PREFIX'),
    retry: { baseMs: 20, capMs: 200, maxAttempts: 12 },
    requestTimeoutMs: 5_000,
  });
  const erp = openErp(sql, log);
  const kinds = (process.env.KINDS ?? OBJECT_KINDS.join(',')).split(',') as (typeof OBJECT_KINDS)[number][];
  for (const kind of kinds) {
    const summary = await syncObjects(
      { sql, erp, platform: syncPlatformFrom(platform), connectionId: env('CONNECTION_ID'), log },
      kind,
      { slices: 2 },
    );
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  }
  await erp.close();
  await platform.close();
  await sql.end();
}
