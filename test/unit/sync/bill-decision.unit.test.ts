import { describe, expect, it } from 'vitest';
import { billSteps } from '../../../src/sync/bill-decision.ts';

describe('bill decision table (docs/platform.md G23)', () => {
  it('row 1: NOT_SYNCED + OPEN → BILL_SYNC only', () => {
    expect(billSteps({ sync_status: 'NOT_SYNCED', status: 'OPEN' })).toEqual(['BILL_SYNC']);
  });
  it('row 2: NOT_SYNCED + PAID → BILL_SYNC then BILL_PAYMENT_SYNC, in that order', () => {
    expect(billSteps({ sync_status: 'NOT_SYNCED', status: 'PAID' })).toEqual([
      'BILL_SYNC',
      'BILL_PAYMENT_SYNC',
    ]);
  });
  it('row 3: BILL_SYNCED + PAID → BILL_PAYMENT_SYNC only', () => {
    expect(billSteps({ sync_status: 'BILL_SYNCED', status: 'PAID' })).toEqual(['BILL_PAYMENT_SYNC']);
  });
  it('nothing to do for BILL_SYNCED + OPEN or BILL_AND_PAYMENT_SYNCED', () => {
    expect(billSteps({ sync_status: 'BILL_SYNCED', status: 'OPEN' })).toEqual([]);
    expect(billSteps({ sync_status: 'BILL_AND_PAYMENT_SYNCED', status: 'PAID' })).toEqual([]);
  });
});
