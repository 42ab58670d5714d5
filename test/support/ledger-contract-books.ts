import type { Sql } from 'postgres';
import type { ContractFixture } from '../../src/erp/kit/index.ts';
import { chartSummary } from '../../src/erp/ledger/chart-summary.ts';
import { LedgerChartWriter } from '../../src/erp/ledger/chart-write.ts';
import { LedgerAdmin } from '../../src/erp/ledger/ledger-admin.ts';
import { seedLedger } from '../../src/erp/ledger/seed.ts';

/**
 * Seeds a ledger schema with what the conformance kit provokes (an inactive account and vendor,
 * a field required on bills, a closed period) and returns the kit's fixture for it.
 */
export async function ledgerContractBooks(sql: Sql, schema: string): Promise<ContractFixture> {
  await seedLedger(sql, schema, { preset: 'small', seed: 3 });
  const write = new LedgerChartWriter(sql, schema);
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
  const admin = new LedgerAdmin(sql, schema);
  await admin.setFieldRequiredFor('department', ['bill']);
  await admin.closePeriod('2024-12');

  const chart = await chartSummary(sql, schema);
  const firstOption = (fieldId: string) => chart.fields.find((f) => f.id === fieldId)!.options[0]!;
  return {
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
  };
}
