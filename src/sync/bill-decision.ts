import type { Bill } from '../platform/index.ts';

export type BillStep = 'BILL_SYNC' | 'BILL_PAYMENT_SYNC';

/**
 * The bill decision table (docs/platform.md G23), read from a bill listed with
 * sync_ready=true:
 *   NOT_SYNCED  + OPEN → BILL_SYNC only
 *   NOT_SYNCED  + PAID → BILL_SYNC, then BILL_PAYMENT_SYNC (in that order)
 *   BILL_SYNCED + PAID → BILL_PAYMENT_SYNC only
 * Anything else (BILL_SYNCED + OPEN, BILL_AND_PAYMENT_SYNCED) has nothing to do.
 */
export function billSteps(bill: Pick<Bill, 'sync_status' | 'status' | 'payment_status'>): BillStep[] {
  const paid = isPaid(bill);
  if (bill.sync_status === 'NOT_SYNCED') return paid ? ['BILL_SYNC', 'BILL_PAYMENT_SYNC'] : ['BILL_SYNC'];
  if (bill.sync_status === 'BILL_SYNCED' && paid) return ['BILL_PAYMENT_SYNC'];
  return [];
}

/** Paid by `status` (the platform guide) or `payment_status` (the published bill, F26). */
function isPaid(bill: Pick<Bill, 'status' | 'payment_status'>): boolean {
  return bill.status === 'PAID' || bill.payment_status === 'PAID';
}
