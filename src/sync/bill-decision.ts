import type { Bill } from '../platform/schemas/objects.ts';

export type BillStep = 'BILL_SYNC' | 'BILL_PAYMENT_SYNC';

/**
 * Spec 001, bill decision table, read from both fields of a bill listed with sync_ready=true:
 *   NOT_SYNCED  + OPEN → BILL_SYNC only
 *   NOT_SYNCED  + PAID → BILL_SYNC, then BILL_PAYMENT_SYNC (in that order)
 *   BILL_SYNCED + PAID → BILL_PAYMENT_SYNC only
 * Anything else (BILL_SYNCED + OPEN, BILL_AND_PAYMENT_SYNCED) has nothing to do.
 */
export function billSteps(bill: Pick<Bill, 'sync_status' | 'status'>): BillStep[] {
  if (bill.sync_status === 'NOT_SYNCED')
    return bill.status === 'PAID' ? ['BILL_SYNC', 'BILL_PAYMENT_SYNC'] : ['BILL_SYNC'];
  if (bill.sync_status === 'BILL_SYNCED' && bill.status === 'PAID') return ['BILL_PAYMENT_SYNC'];
  return [];
}
