// A sync worker process for crash tests: runs every object sync once against the given stub,
// database schema and Redis, then exits 0. Tests kill it with SIGKILL at random moments.
import { createErp } from '../../src/erp/index.ts';
import { env, syncObjectsOnce } from './object-sync-child.ts';

await syncObjectsOnce((sql, log) =>
  createErp({ kind: 'ledger', sql, schema: env('LEDGER_SCHEMA') }, { log }),
);
