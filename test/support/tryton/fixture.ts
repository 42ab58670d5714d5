import { z } from 'zod';
import { TrytonModels } from '../../../src/erp/tryton/models.ts';
import { type TrytonConnection, TrytonRpc } from '../../../src/erp/tryton/rpc.ts';
import type { ContractFixture } from '../../contract/erp-contract-objects.ts';
import { TEST_CHART } from './world-chart.ts';

/**
 * The remote ids of the test books (world-setup.ts) as the adapter reports them: Tryton record
 * ids, read back by code and name, so tests code objects against what is really in Tryton.
 */

const Row = z.object({
  id: z.number().int(),
  code: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
});
const ALL = { context: { active_test: false } };

export interface TrytonBooks {
  accountId(code: string): string;
  supplierIds: string[];
  taxIds: Record<string, string>;
  department: { id: string; name: string; options: string[] };
  fixture: ContractFixture;
  models: TrytonModels;
}

export async function readTrytonBooks(connection: TrytonConnection): Promise<TrytonBooks> {
  const m = new TrytonModels(new TrytonRpc(connection));
  const [accounts, parties, taxes, analytic] = await Promise.all([
    m.searchRead('account.account', [['code', '!=', null]], ['code', 'name'], Row, ALL),
    m.searchRead('party.party', [], ['name'], Row, ALL),
    m.searchRead('account.tax', [], ['name'], Row, ALL),
    m.searchRead('analytic_account.account', [], ['code', 'name'], Row, ALL),
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
  const fixture: ContractFixture = {
    entityId: null,
    currency: { code: 'USD', exponent: 2 },
    foreignCurrency: { code: 'EUR', exponent: 2 },
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
    accountId,
    supplierIds: TEST_CHART.suppliers.map(partyId),
    taxIds,
    department,
    fixture,
    models: m,
  };
}
