import type { ObjectKind } from './types.ts';

/** How each object kind is named in a bookkeeper-facing message. */
export const KIND_LABEL: Record<ObjectKind, string> = {
  vendor: 'vendor',
  card_transaction: 'card transaction',
  reimbursement: 'reimbursement',
  transfer: 'transfer',
  cashback: 'cashback',
  bill: 'bill',
  bill_payment: 'bill payment',
};
