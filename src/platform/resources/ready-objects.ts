import type { z } from 'zod';
import type { Listing } from '../pagination.ts';
import {
  Bill,
  Cashback,
  type ListBillsQuery,
  type ListSimpleObjectsQuery,
  type ListTransactionsQuery,
  Reimbursement,
  Transaction,
  Transfer,
} from '../schemas/objects.ts';
import { type Filters, fetchOne, listing, type ResourceContext, segment } from './context.ts';

export type TransactionFilters = Filters<z.input<typeof ListTransactionsQuery>>;
export type SimpleObjectFilters = Filters<z.input<typeof ListSimpleObjectsQuery>>;
export type BillFilters = Filters<z.input<typeof ListBillsQuery>>;

/**
 * The objects a sync exports (docs/platform.md F16): ready ones are read with
 * sync_status=SYNC_READY (bills: sync_ready=true); sync-button reads add requested_to_sync=true;
 * delta reads use synced_after (transactions) or from_created_at (bills, docs/platform.md G11).
 * Lists page by 100 (F4).
 */
export function readyObjectsResource(ctx: ResourceContext) {
  const transactions = (filters: TransactionFilters = {}): Listing<Transaction> =>
    listing(ctx, '/transactions', filters, Transaction, 'transaction');
  const reimbursements = (filters: TransactionFilters = {}): Listing<Reimbursement> =>
    listing(ctx, '/reimbursements', filters, Reimbursement, 'reimbursement');
  const transfers = (filters: SimpleObjectFilters = {}): Listing<Transfer> =>
    listing(ctx, '/transfers', filters, Transfer, 'transfer');
  const cashbacks = (filters: SimpleObjectFilters = {}): Listing<Cashback> =>
    listing(ctx, '/cashbacks', filters, Cashback, 'cashback');
  const bills = (filters: BillFilters = {}): Listing<Bill> => listing(ctx, '/bills', filters, Bill, 'bill');

  return {
    transactions,
    reimbursements,
    transfers,
    cashbacks,
    bills,

    /** F16 shorthands: what is ready for each sync type (sync-button reads: requestedToSync). */
    readyTransactions(options: ReadyOptions<TransactionFilters> = {}): Listing<Transaction> {
      const { requestedToSync, ...rest } = options;
      return transactions({ ...rest, sync_status: 'SYNC_READY', ...syncButton(requestedToSync) });
    },
    readyReimbursements(options: ReadyOptions<TransactionFilters> = {}): Listing<Reimbursement> {
      const { requestedToSync, ...rest } = options;
      return reimbursements({ ...rest, sync_status: 'SYNC_READY', ...syncButton(requestedToSync) });
    },
    readyTransfers(filters: SimpleObjectFilters = {}): Listing<Transfer> {
      return transfers({ ...filters, sync_status: 'SYNC_READY' });
    },
    readyCashbacks(filters: SimpleObjectFilters = {}): Listing<Cashback> {
      return cashbacks({ ...filters, sync_status: 'SYNC_READY' });
    },
    readyBills(filters: BillFilters = {}): Listing<Bill> {
      return bills({ ...filters, sync_ready: true });
    },

    /** Single reads, e.g. to re-read an object a webhook named (docs/platform.md G12). */
    transaction(id: string): Promise<Transaction> {
      return fetchOne(ctx, { method: 'GET', path: `/transactions/${segment(id)}` }, Transaction);
    },
    reimbursement(id: string): Promise<Reimbursement> {
      return fetchOne(ctx, { method: 'GET', path: `/reimbursements/${segment(id)}` }, Reimbursement);
    },
    bill(id: string): Promise<Bill> {
      return fetchOne(ctx, { method: 'GET', path: `/bills/${segment(id)}` }, Bill);
    },
  };
}

/** Filters of a ready read; `requestedToSync` selects the sync-button objects (F16). */
export type ReadyOptions<F> = Omit<F, 'sync_status' | 'requested_to_sync'> & { requestedToSync?: boolean };

function syncButton(requestedToSync: boolean | undefined): { requested_to_sync?: boolean } {
  return requestedToSync ? { requested_to_sync: true } : {};
}

export type ReadyObjectsResource = ReturnType<typeof readyObjectsResource>;
