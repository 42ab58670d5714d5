import type { z } from 'zod';
import type { ErpWrite } from '../../erp/types.ts';
import { Bill, Cashback, Reimbursement, Transaction, Transfer } from '../../platform/schemas/objects.ts';
import type { SyncType } from '../../platform/schemas/syncs.ts';
import { billSteps } from '../bill-decision.ts';
import {
  mapBill,
  mapBillPayment,
  mapCashback,
  mapReimbursement,
  mapTransaction,
  mapTransfer,
} from '../map/objects.ts';

export const OBJECT_KINDS = ['transactions', 'reimbursements', 'transfers', 'cashbacks', 'bills'] as const;
export type ObjectKindName = (typeof OBJECT_KINDS)[number];

/**
 * Kinds read with several cursors split by date: of the ready-object lists only transactions
 * honour a date filter (docs/platform.md F28). Reimbursements, transfers and cashbacks would
 * ignore `from_date`, so every cursor would read the whole list; bills have no filter that
 * splits them exhaustively. The others are read with one cursor.
 */
export function readByDate(kind: ObjectKindName): boolean {
  return kind === 'transactions';
}

/** One ERP write the object needs, under the sync type it is reported with. */
export interface PlannedStep {
  syncType: SyncType;
  build: () => ErpWrite;
}

export interface KindSpec<T extends { id: string }> {
  name: ObjectKindName;
  /** Singular, for messages a bookkeeper reads. */
  noun: string;
  schema: z.ZodType<T>;
  /** The sync types this kind reports, in the order they must reach the platform. */
  syncTypes: readonly SyncType[];
  steps(object: T): PlannedStep[];
  /** Sync-button reads exist for these (docs/platform.md G28). */
  syncButton: boolean;
}

const transactions: KindSpec<Transaction> = {
  name: 'transactions',
  noun: 'card transaction',
  schema: Transaction,
  syncTypes: ['TRANSACTION_SYNC'],
  steps: (t) => [{ syncType: 'TRANSACTION_SYNC', build: () => mapTransaction(t) }],
  syncButton: true,
};

const reimbursements: KindSpec<Reimbursement> = {
  name: 'reimbursements',
  noun: 'reimbursement',
  schema: Reimbursement,
  syncTypes: ['REIMBURSEMENT_SYNC'],
  steps: (r) => [{ syncType: 'REIMBURSEMENT_SYNC', build: () => mapReimbursement(r) }],
  syncButton: true,
};

const transfers: KindSpec<Transfer> = {
  name: 'transfers',
  noun: 'transfer',
  schema: Transfer,
  syncTypes: ['TRANSFER_SYNC'],
  steps: (t) => [{ syncType: 'TRANSFER_SYNC', build: () => mapTransfer(t) }],
  syncButton: false,
};

const cashbacks: KindSpec<Cashback> = {
  name: 'cashbacks',
  noun: 'cashback',
  schema: Cashback,
  // docs/platform.md F14: cashbacks are reported as STATEMENT_CREDIT_SYNC.
  syncTypes: ['STATEMENT_CREDIT_SYNC'],
  steps: (c) => [{ syncType: 'STATEMENT_CREDIT_SYNC', build: () => mapCashback(c) }],
  syncButton: false,
};

const bills: KindSpec<Bill> = {
  name: 'bills',
  noun: 'bill',
  schema: Bill,
  // docs/platform.md G23: a payment is reported only after its bill (BILL_SYNCED first).
  syncTypes: ['BILL_SYNC', 'BILL_PAYMENT_SYNC'],
  steps: (b) =>
    billSteps(b).map((syncType) => ({
      syncType,
      build: () => (syncType === 'BILL_SYNC' ? mapBill(b) : mapBillPayment(b)),
    })),
  syncButton: false,
};

export const KIND_SPECS: { [K in ObjectKindName]: KindSpec<{ id: string }> } = {
  transactions: transactions as unknown as KindSpec<{ id: string }>,
  reimbursements: reimbursements as unknown as KindSpec<{ id: string }>,
  transfers: transfers as unknown as KindSpec<{ id: string }>,
  cashbacks: cashbacks as unknown as KindSpec<{ id: string }>,
  bills: bills as unknown as KindSpec<{ id: string }>,
};

/** Every sync type in the order results must reach the platform. */
export const SYNC_TYPE_ORDER: readonly SyncType[] = OBJECT_KINDS.flatMap((k) => KIND_SPECS[k].syncTypes);
