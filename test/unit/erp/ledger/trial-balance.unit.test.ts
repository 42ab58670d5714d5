import { describe, expect, it } from 'vitest';
import {
  formatTrialBalance,
  type TrialBalanceRow,
  trialBalanceTotals,
} from '../../../../src/erp/ledger/trial-balance.ts';

const row = (code: string, name: string, debits: number, credits: number): TrialBalanceRow => ({
  currency: 'USD',
  exponent: 2,
  accountId: `gl-${code}`,
  code,
  name,
  classification: 'EXPENSE',
  debits,
  credits,
  balance: debits - credits,
});

describe('formatTrialBalance', () => {
  it('shows debits, credits and balance per account, and a zero total', () => {
    const rows = [
      row('2100', 'Corporate Card Payable', 0, 1_234_56),
      row('6020', 'Travel - Airfare', 1_234_56, 0),
    ];
    const text = formatTrialBalance(rows);
    expect(text).toContain('Trial balance (USD)');
    expect(text).toMatch(/2100 +Corporate Card Payable +EXPENSE +0\.00 +1,234\.56 +-1,234\.56/);
    expect(text).toMatch(/Total USD +1,234\.56 +1,234\.56 +0\.00/);
    expect(text).toContain('The books balance.');
    expect(trialBalanceTotals(rows).get('USD')).toBe(0);
  });

  it('says so when the books do not balance, and when there is nothing yet', () => {
    expect(formatTrialBalance([row('6020', 'Travel', 100, 0)])).toContain('THE BOOKS DO NOT BALANCE.');
    expect(formatTrialBalance([])).toBe('Trial balance: no entries yet.');
  });
});
