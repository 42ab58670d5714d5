import type { Sql } from 'postgres';
import type { ContractFixture } from '../kit/index.ts';
import { chartSummary } from './chart-summary.ts';
import { LedgerChartWriter } from './chart-write.ts';
import { LedgerAdmin } from './ledger-admin.ts';
import { seedLedger } from './seed.ts';
import { ledgerTables } from './tables.ts';

/** The vendor only kit books hold: its presence says a schema was set up by `seedKitBooks`. */
const KIT_VENDOR = { id: 'ven-defunct', name: 'Defunct Supplies Inc', code: 'V99999', active: false };

/**
 * Seeds a ledger schema with what the conformance kit (src/erp/kit) provokes (an inactive account
 * and vendor, a field required on bills, a closed period) and returns the kit's fixture for it.
 * Idempotent: run twice on one schema, it changes nothing and returns the same fixture. Used by
 * the kit's tests and by `ledgersync erp kit-books`, which serves these books to `erp check`.
 */
export async function seedKitBooks(sql: Sql, schema: string): Promise<ContractFixture> {
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
  await write.vendors([KIT_VENDOR]);
  const admin = new LedgerAdmin(sql, schema);
  await admin.setFieldRequiredFor('department', ['bill']);
  await admin.closePeriod('2024-12');

  const chart = await chartSummary(sql, schema);
  const firstOption = (fieldId: string) => chart.fields.find((f) => f.id === fieldId)!.options[0]!;
  // A seeded vendor (ven-00001 …), never one the kit created (V-…): the fixture stays the same
  // when kit-books runs again on books the kit has written into.
  const vendorId = chart.vendors.find((id) => /^ven-\d+$/.test(id))!;
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
    vendorId,
    inactiveVendor: { id: KIT_VENDOR.id, name: KIT_VENDOR.name },
    unknownVendorId: 'ven-404',
    taxCodeId: 'tc-vat20',
    dimensions: { department: firstOption('department'), class: firstOption('class') },
    requiredField: { id: 'department', name: 'Department' },
  };
}

/**
 * Whether the schema holds books in use that are not kit books: postings, and no kit vendor.
 * The kit's settings (a closed month, a field required on bills) would change such books, so
 * `erp kit-books` refuses them. A schema that does not exist yet holds nothing.
 */
export async function holdsOtherBooks(sql: Sql, schema: string): Promise<boolean> {
  const [exists] =
    await sql`select to_regclass(format('%I.postings', ${schema}::text)) is not null as "exists"`;
  if (!exists?.exists) return false;
  const t = ledgerTables(sql, schema);
  const [row] = await sql<{ posted: boolean; kit: boolean }[]>`
    select exists (select 1 from ${t.postings}) as posted,
           exists (select 1 from ${t.vendors} where id = ${KIT_VENDOR.id}) as kit`;
  return Boolean(row?.posted && !row.kit);
}
