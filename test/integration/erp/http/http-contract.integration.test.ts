import type { FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';
import { createErp } from '../../../../src/erp/index.ts';
import { seedKitBooks } from '../../../../src/erp/ledger/kit-books.ts';
import { runErpContract } from '../../../contract/erp-contract.ts';
import { useTestDatabase } from '../../../support/db.ts';
import { startReferenceService } from './reference-service.ts';

const db = useTestDatabase({ migrate: false });
let service: FastifyInstance | undefined;

afterAll(async () => {
  await service?.close();
});

const TOKEN = 'contract-token-0123456789';
const SECRET = 'contract-hmac-secret-0123456789';

// The ledger behind the reference service, reached only through HTTP: the adapter must keep the
// whole ERP contract over the wire (small pages, so every chart stream crosses several cursors).
runErpContract('http (reference service over the ledger)', async () => {
  const schema = db.newSchema('ledger');
  const fixture = await seedKitBooks(db.sql, schema);

  const started = await startReferenceService(db.sql, schema, {
    token: TOKEN,
    hmacSecret: SECRET,
    pageSize: 7,
  });
  service = started.app;
  const fast = { maxAttempts: 2, baseMs: 10, capMs: 20 };
  return {
    erp: createErp({ kind: 'http', url: started.url, token: TOKEN, hmacSecret: SECRET, retry: fast }),
    // A port nothing listens on.
    unreachableErp: createErp({ kind: 'http', url: 'http://127.0.0.1:1', timeoutMs: 2_000, retry: fast }),
    fixture,
  };
});
