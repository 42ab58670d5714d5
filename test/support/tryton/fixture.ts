import { z } from 'zod';
import { type TrytonConnection, TrytonModels, TrytonRpc } from '../../../src/erp/index.ts';
import type { ContractFixture } from '../../../src/erp/kit/index.ts';
import { TEST_CHART } from './world-chart.ts';

/**
 * The remote ids of the test books (world-setup.ts) as the adapter reports them: Tryton record
 * ids, read back by code and name, so tests code objects against what is really in Tryton. The
 * first company's by default; `company: 'second'` reads the EUR company's books (same layout,
 * its own ids), with `models` working in that company.
 */

const Row = z.object({
  id: z.number().int(),
  code: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
});
const ALL = { context: { active_test: false } };

export interface TrytonBooks {
  companyId: number;
  companyName: string;
  accountId(code: string): string;
  supplierIds: string[];
  taxIds: Record<string, string>;
  department: { id: string; name: string; options: string[] };
  fixture: ContractFixture;
  models: TrytonModels;
}

const CompanyRow = z.object({ id: z.number().int(), party: z.number().int() });

export async function readTrytonBooks(
  connection: TrytonConnection,
  options: { company?: 'first' | 'second' } = {},
): Promise<TrytonBooks> {
  const base = new TrytonModels(new TrytonRpc(connection));
  const spec = options.company === 'second' ? TEST_CHART.secondCompany : TEST_CHART.company;
  const [parties, companies] = await Promise.all([
    base.searchRead('party.party', [], ['name'], Row, ALL),
    base.searchRead('company.company', [], ['party'], CompanyRow),
  ]);
  const companyParty = parties.find((p) => p.name === spec.name)!.id;
  const companyId = companies.find((c) => c.party === companyParty)!.id;
  const m = options.company === 'second' ? base.forCompany(companyId) : base;
  const own = ['company', '=', companyId];
  const [accounts, taxes, analytic] = await Promise.all([
    m.searchRead('account.account', [own, ['code', '!=', null]], ['code', 'name'], Row, ALL),
    m.searchRead('account.tax', [own], ['name'], Row, ALL),
    m.searchRead('analytic_account.account', [own], ['code', 'name'], Row, ALL),
  ]);
  const byCode = new Map(accounts.map((a) => [a.code, String(a.id)]));
  const accountId = (code: string) => {
    const id = byCode.get(code);
    if (!id) throw new Error(`no Tryton account ${code}`);
    return id;
  };
  const partyId = (name: string) => String(parties.find((p) => p.name === name)!.id);
  const axis = TEST_CHART.analytic[0]!;
  const department = {
    id: String(analytic.find((a) => a.code === axis.code)!.id),
    name: axis.name,
    options: axis.options.map((o) => String(analytic.find((a) => a.code === o.code)!.id)),
  };
  const taxIds = Object.fromEntries(taxes.map((t) => [t.name ?? '', String(t.id)]));
  const other = options.company === 'second' ? TEST_CHART.company : TEST_CHART.secondCompany;
  const fixture: ContractFixture = {
    entityId: null,
    currency: { code: spec.currency.code, exponent: 2 },
    foreignCurrency: { code: other.currency.code, exponent: 2 },
    openDate: '2025-02-10',
    closedDate: '2024-12-15',
    expenseAccountId: accountId('6020'),
    otherExpenseAccountId: accountId('6040'),
    inactiveAccount: { id: accountId('6999'), code: '6999' },
    unknownAccountId: '999999',
    vendorId: partyId(TEST_CHART.suppliers[0]!),
    inactiveVendor: { id: partyId(TEST_CHART.inactiveSupplier), name: TEST_CHART.inactiveSupplier },
    unknownVendorId: '999998',
    taxCodeId: taxIds['VAT 20%']!,
    dimensions: { [department.id]: department.options[0]! },
    requiredField: { id: department.id, name: department.name },
  };
  return {
    companyId,
    companyName: spec.name,
    accountId,
    supplierIds: TEST_CHART.suppliers.map(partyId),
    taxIds,
    department,
    fixture,
    models: m,
  };
}
