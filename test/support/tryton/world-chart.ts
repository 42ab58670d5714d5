/**
 * What the test books in Tryton hold, beyond the minimal chart's Main Payable / Main Tax /
 * Main Cash...: the accounts objects are coded with and the posting defaults the adapter finds
 * by code (see docs/tryton.md), one tax per rate, a Department analytic axis and suppliers.
 */
export const TEST_CHART = {
  company: {
    name: 'Ledgersync Test Co',
    currency: { name: 'U.S. Dollar', code: 'USD', symbol: '$' },
  },
  /** A second company in the same database, with books of the same layout (its own ids). */
  secondCompany: {
    name: 'Ledgersync Europe',
    currency: { name: 'Euro', code: 'EUR', symbol: '€' },
  },
  fiscalYears: [2023, 2024, 2025, 2026],
  /** Closed in setup: objects dated in it are refused. */
  closedPeriod: '2024-12',
  journalCode: 'SVC',
  accounts: [
    { code: '6020', name: 'Office Supplies', kind: 'expense' },
    { code: '6040', name: 'Travel', kind: 'expense' },
    { code: '6060', name: 'Software', kind: 'expense' },
    { code: '6080', name: 'Meals', kind: 'expense' },
    { code: '6999', name: 'Old Travel', kind: 'expense', closed: true },
    { code: '2100', name: 'Card Liability', kind: 'liability' },
    { code: '2150', name: 'Employee Reimbursements', kind: 'liability' },
    { code: '1010', name: 'Operating Bank', kind: 'cash' },
    { code: '4900', name: 'Card Cashback', kind: 'revenue' },
  ] as { code: string; name: string; kind: 'expense' | 'revenue' | 'cash' | 'liability'; closed?: boolean }[],
  taxes: [
    { name: 'VAT 20%', rate: '0.20' },
    { name: 'Zero rated', rate: '0' },
  ],
  analytic: [
    {
      name: 'Department',
      code: 'DEPT',
      options: [
        { name: 'Engineering', code: 'ENG' },
        { name: 'Sales', code: 'SALES' },
        { name: 'Operations', code: 'OPS' },
      ],
    },
  ],
  suppliers: ['Northwind Traders', 'Contoso Supplies', 'Fabrikam Office', 'Adventure Works'],
  inactiveSupplier: 'Defunct Supplies Inc',
};
