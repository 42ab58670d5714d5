import type { FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';
import { createErp } from '../../../../src/erp/index.ts';
import { chartSummary } from '../../../../src/erp/ledger/chart-summary.ts';
import { LedgerChartWriter } from '../../../../src/erp/ledger/chart-write.ts';
import { LedgerAdmin } from '../../../../src/erp/ledger/ledger-admin.ts';
import { seedLedger } from '../../../../src/erp/ledger/seed.ts';
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
  await seedLedger(db.sql, schema, { preset: 'small', seed: 3 });
  const write = new LedgerChartWriter(db.sql, schema);
  await write.accounts([
    {
      id: 'gl-6999',
      code: '6999',
      name: 'Old Travel',
      classification: 'EXPENSE',
      active: false,
      hidden: false,
    },
  ]);
  await write.vendors([{ id: 'ven-defunct', name: 'Defunct Supplies Inc', code: 'V99999', active: false }]);
  const admin = new LedgerAdmin(db.sql, schema);
  await admin.setFieldRequiredFor('department', ['bill']);
  await admin.closePeriod('2024-12');
  const chart = await chartSummary(db.sql, schema);
  const firstOption = (fieldId: string) => chart.fields.find((f) => f.id === fieldId)!.options[0]!;

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
    fixture: {
      entityId: null,
      currency: { code: 'USD', exponent: 2 },
      foreignCurrency: { code: 'EUR', exponent: 2 },
      openDate: '2025-02-10',
      closedDate: '2024-12-15',
      expenseAccountId: 'gl-6020',
      otherExpenseAccountId: 'gl-6040',
      inactiveAccount: { id: 'gl-6999', code: '6999' },
      unknownAccountId: 'gl-0404',
      vendorId: chart.vendors[0]!,
      inactiveVendor: { id: 'ven-defunct', name: 'Defunct Supplies Inc' },
      unknownVendorId: 'ven-404',
      taxCodeId: 'tc-vat20',
      dimensions: { department: firstOption('department'), class: firstOption('class') },
      requiredField: { id: 'department', name: 'Department' },
    },
  };
});
