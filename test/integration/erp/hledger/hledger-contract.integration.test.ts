import { afterAll, describe } from 'vitest';
import { createErp } from '../../../../src/erp/index.ts';
import type { ContractFixture } from '../../../../src/erp/kit/index.ts';
import { runErpContract } from '../../../contract/erp-contract.ts';
import { type HledgerServer, requireHledgerWeb, startHledgerWeb } from '../../../support/hledger/server.ts';

requireHledgerWeb();

/**
 * The test books as an hledger user writes them: account directives with types, and the
 * chart declaration the adapter reads (src/erp/hledger/books.ts): currency, lock date, the
 * project dimension required on every line, posting roles, a 5% tax rate, inactive accounts.
 * Vendors are the subaccounts of the payable account.
 */
const JOURNAL = `account assets:bank  ; type: C
account assets:vat:input5  ; type: A
account liabilities:card  ; type: L
account liabilities:employees  ; type: L
account liabilities:payable  ; type: L
account equity:opening  ; type: E
account revenues:cashback  ; type: R
account expenses:office  ; type: X
account expenses:travel  ; type: X
account expenses:old  ; type: X

2024-01-01 ledgersync chart  ; ledgersync-chart:, currency:USD, closed-until:2024-06-30, dimension:project, required-dimension:project, project:apollo, project:zeus
    assets:bank  0  ; role:bank
    liabilities:card  0  ; role:card_liability
    liabilities:employees  0  ; role:employee_payable
    liabilities:payable  0  ; role:accounts_payable
    revenues:cashback  0  ; role:cashback_income
    assets:vat:input5  0  ; tax-rate:0.05
    expenses:old  0  ; inactive:
    liabilities:payable:Acme Inc  0
    liabilities:payable:Old Supplier  0  ; inactive:

2024-01-02 opening balance
    assets:bank  USD 100000.00
    equity:opening
`;

const FIXTURE: ContractFixture = {
  entityId: null,
  currency: { code: 'USD', exponent: 2 },
  foreignCurrency: { code: 'EUR', exponent: 2 },
  openDate: '2025-03-15',
  closedDate: '2024-05-10',
  expenseAccountId: 'expenses:office',
  otherExpenseAccountId: 'expenses:travel',
  // hledger accounts have no codes: the full name is what a bookkeeper knows one by.
  inactiveAccount: { id: 'expenses:old', code: 'expenses:old' },
  unknownAccountId: 'expenses:nowhere',
  vendorId: 'liabilities:payable:Acme Inc',
  inactiveVendor: { id: 'liabilities:payable:Old Supplier', name: 'Old Supplier' },
  unknownVendorId: 'liabilities:payable:Nobody',
  taxCodeId: 'assets:vat:input5',
  dimensions: { project: 'apollo' },
  requiredField: { id: 'project', name: 'project' },
};

// A port nothing listens on: every call fails before reaching hledger-web.
const unreachable = () => createErp({ kind: 'hledger', url: 'http://127.0.0.1:1', timeoutMs: 2_000 });

describe('hledger-web 1.25 JSON API', () => {
  let server: HledgerServer | undefined;
  afterAll(() => server?.stop());

  runErpContract('hledger', async () => {
    server = await startHledgerWeb(JOURNAL);
    return {
      erp: createErp({ kind: 'hledger', url: server.url }),
      unreachableErp: unreachable(),
      fixture: FIXTURE,
    };
  });
});

describe('hledger-web 1.25 JSON API, with a public base URL', () => {
  let server: HledgerServer | undefined;
  afterAll(() => server?.stop());

  runErpContract('hledger (deep links under ERP_PUBLIC_URL)', async () => {
    server = await startHledgerWeb(JOURNAL);
    // docs/platform.md F42: with a public base the bill links there (the first contract has none).
    const deepLinkBase = 'https://books.example.com';
    return {
      erp: createErp({ kind: 'hledger', url: server.url, deepLinkBase }),
      deepLinkBase,
      unreachableErp: unreachable(),
      fixture: FIXTURE,
    };
  });
});
