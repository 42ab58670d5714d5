// A sync worker process for Tryton crash tests: runs the object syncs once against the given
// stub, worker schema, Redis and Tryton database, then exits 0. With PAUSE_AFTER_ERP_WRITE=1 it
// stops right after the first ERP write that created something, before reporting it to the
// platform, prints "erp-written" and waits there to be killed with SIGKILL.
import postgres from 'postgres';
import type { ErpAdapter } from '../../../src/erp/index.ts';
import { createErp } from '../../../src/erp/index.ts';
import type { WriteResult } from '../../../src/erp/types.ts';
import { createLogger } from '../../../src/log.ts';
import { createPlatformClient } from '../../../src/platform/client.ts';
import { DEFAULT_CLIENT } from '../../../src/stub/index.ts';
import { OBJECT_KINDS } from '../../../src/sync/objects/kinds.ts';
import { syncPlatformFrom } from '../../../src/sync/objects/platform-adapter.ts';
import { syncObjects } from '../../../src/sync/objects/sync-objects.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

/** Hangs after a write that created something in Tryton, so the parent kills us right there. */
function pausingAfterWrites(erp: ErpAdapter): ErpAdapter {
  const pauseIfWritten = async (results: WriteResult[]) => {
    if (results.some((r) => r.ok && !r.replayed)) {
      process.stdout.write('erp-written\n');
      await new Promise(() => {});
    }
    return results;
  };
  return new Proxy(erp, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      if (property === 'postMany') return (items: never) => target.postMany(items).then(pauseIfWritten);
      if (/^(post|create)/.test(property)) {
        return (input: never) =>
          (value as (i: never) => Promise<WriteResult>)
            .call(target, input)
            .then(async (r) => (await pauseIfWritten([r]))[0]);
      }
      return value.bind(target);
    },
  });
}

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
const tryton = createErp(
  {
    kind: 'tryton',
    url: env('TRYTON_URL'),
    database: env('TRYTON_DATABASE'),
    user: env('TRYTON_USER'),
    password: env('TRYTON_PASSWORD'),
  },
  { log },
);
const erp = process.env.PAUSE_AFTER_ERP_WRITE === '1' ? pausingAfterWrites(tryton) : tryton;
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
