import postgres, { type Sql } from 'postgres';
import { afterAll } from 'vitest';
import { createErp } from '../../../../src/erp/index.ts';
import { seedKitBooks } from '../../../../src/erp/ledger/kit-books.ts';
import { runErpContract } from '../../../contract/erp-contract.ts';
import { useTestDatabase } from '../../../support/db.ts';

const db = useTestDatabase({ migrate: false });
let deadPool: Sql | undefined;

afterAll(async () => {
  await deadPool?.end({ timeout: 1 });
});

runErpContract('ledger', async () => {
  const schema = db.newSchema('ledger');
  const fixture = await seedKitBooks(db.sql, schema);
  // A port nothing listens on: every write to this ERP fails before reaching a database.
  deadPool = postgres('postgres://ledger:ledger@127.0.0.1:1/ledger', { max: 1, connect_timeout: 2 });
  // docs/platform.md F42: bills link under a configured public base (ledger-deep-links tests none).
  const deepLinkBase = 'https://books.example.com/ledger';
  return {
    erp: createErp({ kind: 'ledger', sql: db.sql, schema, deepLinkBase }),
    deepLinkBase,
    unreachableErp: createErp({ kind: 'ledger', sql: deadPool, schema }),
    fixture,
  };
});
