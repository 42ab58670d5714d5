import postgres, { type Sql } from 'postgres';
import { afterAll } from 'vitest';
import { createErp } from '../../../../src/erp/index.ts';
import { chartSummary } from '../../../../src/erp/ledger/chart-summary.ts';
import { LedgerChartWriter } from '../../../../src/erp/ledger/chart-write.ts';
import { LedgerAdmin } from '../../../../src/erp/ledger/ledger-admin.ts';
import { seedLedger } from '../../../../src/erp/ledger/seed.ts';
import { runErpContract } from '../../../contract/erp-contract.ts';
import { useTestDatabase } from '../../../support/db.ts';

const db = useTestDatabase({ migrate: false });
let deadPool: Sql | undefined;

afterAll(async () => {
  await deadPool?.end({ timeout: 1 });
});

runErpContract('ledger', async () => {
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
  // A port nothing listens on: every write to this ERP fails before reaching a database.
  deadPool = postgres('postgres://ledger:ledger@127.0.0.1:1/ledger', { max: 1, connect_timeout: 2 });
  // docs/platform.md F42: bills link under a configured public base (ledger-deep-links tests none).
  const deepLinkBase = 'https://books.example.com/ledger';
  return {
    erp: createErp({ kind: 'ledger', sql: db.sql, schema, deepLinkBase }),
    deepLinkBase,
    unreachableErp: createErp({ kind: 'ledger', sql: deadPool, schema }),
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
