import type { ErpAdapter, ObjectKind as ErpObjectKind, ErpWrite } from '../../erp/index.ts';
import type { Logger } from '../../log.ts';
import type { EventType, ObjectList, SyncType } from '../../platform/index.ts';
import { Bill, Cashback, Reimbursement, Transaction, Transfer } from '../../platform/index.ts';
import { billSteps } from '../bill-decision.ts';
import {
  mapBill,
  mapBillPayment,
  mapCashback,
  mapReimbursement,
  mapTransaction,
  mapTransfer,
} from '../map/index.ts';
import type { Outcome } from '../sync-ledger/index.ts';
import type { SyncPlatform } from './platform-port.ts';
import { checkMissingVendors, createMissingVendors } from './vendor-creation.ts';

/**
 * The object-kind registry: every kind of platform object ledgersync syncs, declared once, from
 * the platform list it is read from to the ERP writes it becomes. The pipeline (reading, planning,
 * reporting, reconcile, the sync button, the CLI) derives what it needs from here and never names
 * a kind itself; test/unit/kind-wiring.unit.test.ts checks each kind against the stub, the sync
 * types and the ERP adapters. docs/extending.md "Add an object kind" lists the steps.
 *
 * A kind's name is the product's one word for it ('transactions', the platform's path segment);
 * the platform's and the ERP's own values (paths, sync types, 'card_transaction') are wire values
 * and are mapped here.
 */

/** The kinds, in the order their results reach the platform (SYNC_TYPE_ORDER). */
export const OBJECT_KINDS = ['transactions', 'reimbursements', 'transfers', 'cashbacks', 'bills'] as const;
export type ObjectKindName = (typeof OBJECT_KINDS)[number];

/** One ERP write the object needs, under the sync type it is reported with. */
interface PlannedStep {
  syncType: SyncType;
  build: () => ErpWrite;
}

type Failure = Extract<Outcome, { ok: false }>;

/**
 * Work a page's objects need before their own writes (docs/platform.md G26: an accounting vendor
 * created, uploaded and coded first). An object it cannot prepare is reported failed with the
 * reason, and not written.
 */
interface Preparation<T> {
  /** Does the work; may update the objects in place (the coding it added). */
  run(
    context: { erp: ErpAdapter; platform: SyncPlatform; log: Logger },
    objects: T[],
  ): Promise<{ failures: Failure[]; vendorsCreated: number }>;
  /** The dry run's twin: what `run` would fail, writing nothing. */
  check(erp: ErpAdapter, objects: T[]): Promise<{ failures: Failure[]; wouldCreateVendorsFor: number }>;
}

/** The platform objects every kind's items are: an id, and the times reconcile reads. */
export interface PlatformObject {
  id: string;
  synced_at?: string | null;
  created_at?: string | null;
}

export interface KindSpec<T extends PlatformObject> {
  name: ObjectKindName;
  /** Singular, for messages a bookkeeper reads. */
  noun: string;
  /** The platform list and its ready filter (docs/platform.md F16). */
  list: ObjectList<T>;
  /**
   * The object's date the list's from_date / to_date filter on, when reads split by it into
   * several cursors; absent: read with one cursor (docs/platform.md F28: only transactions honour
   * a date filter; the others would hand every cursor the whole list).
   */
  splitDate?(object: T): string | null | undefined;
  /** The sync types this kind reports, in the order they must reach the platform. */
  syncTypes: readonly SyncType[];
  /** The ERP write kinds its steps build (src/erp/types.ts ObjectKind, the ERP contract's values). */
  erpKinds: readonly ErpObjectKind[];
  steps(object: T): PlannedStep[];
  /** Runs before a page is planned, when the kind needs it. */
  prepare?: Preparation<T>;
  /** Whether a single read (replay) finds it still waiting to be synced. */
  waiting(object: T): boolean;
  /** The webhook events that start a sync of the kind (docs/platform.md G12). */
  syncOn: readonly EventType[];
  /** Sync-button reads exist for it (docs/platform.md G28): its press event and connection flag. */
  syncButton: { objectType: ButtonObjectType; event: EventType; flag: ButtonFlag } | null;
  /** How reconcile finds what the platform shows synced (docs/platform.md G25). */
  synced: {
    query: Record<string, string>;
    /** The delta filter a cursor is kept in, and the time it advances to for an item. */
    since: 'synced_after' | 'from_created_at';
    timeOf(object: T): string | null;
  };
}

/** The sync-button object types (wire values of `sync_requests.object_type`). */
export type ButtonObjectType = 'TRANSACTION' | 'REIMBURSEMENT';
export type ButtonFlag = 'transaction_sync_button_enabled' | 'reimbursement_sync_button_enabled';

const sinceSynced = { query: { sync_status: 'SYNCED' }, since: 'synced_after' as const };
const syncedAt = (o: { synced_at?: string | null }) => o.synced_at ?? null;
const readyStatus = { sync_status: 'SYNC_READY' };
const isReady = (o: { sync_status?: string | null }) => o.sync_status === 'SYNC_READY';

const transactions: KindSpec<Transaction> = {
  name: 'transactions',
  noun: 'card transaction',
  list: {
    path: '/transactions',
    item: Transaction,
    what: 'transaction',
    ready: readyStatus,
    requestedToSync: true,
    singleRead: true,
  },
  // docs/platform.md F23, G4: from_date / to_date filter on the transaction time.
  splitDate: (t) => t.user_transaction_time,
  syncTypes: ['TRANSACTION_SYNC'],
  erpKinds: ['card_transaction', 'vendor'],
  steps: (t) => [{ syncType: 'TRANSACTION_SYNC', build: () => mapTransaction(t) }],
  prepare: { run: createMissingVendors, check: checkMissingVendors },
  waiting: isReady,
  syncOn: ['transactions.ready_to_sync'],
  syncButton: {
    objectType: 'TRANSACTION',
    event: 'transactions.sync_requested',
    flag: 'transaction_sync_button_enabled',
  },
  synced: { ...sinceSynced, timeOf: syncedAt },
};

const reimbursements: KindSpec<Reimbursement> = {
  name: 'reimbursements',
  noun: 'reimbursement',
  list: {
    path: '/reimbursements',
    item: Reimbursement,
    what: 'reimbursement',
    ready: readyStatus,
    requestedToSync: true,
    singleRead: true,
  },
  syncTypes: ['REIMBURSEMENT_SYNC'],
  erpKinds: ['reimbursement'],
  steps: (r) => [{ syncType: 'REIMBURSEMENT_SYNC', build: () => mapReimbursement(r) }],
  waiting: isReady,
  syncOn: ['reimbursements.ready_to_sync'],
  syncButton: {
    objectType: 'REIMBURSEMENT',
    event: 'reimbursements.sync_requested',
    flag: 'reimbursement_sync_button_enabled',
  },
  synced: { ...sinceSynced, timeOf: syncedAt },
};

const transfers: KindSpec<Transfer> = {
  name: 'transfers',
  noun: 'transfer',
  list: {
    path: '/transfers',
    item: Transfer,
    what: 'transfer',
    ready: readyStatus,
    requestedToSync: false,
    singleRead: false,
  },
  syncTypes: ['TRANSFER_SYNC'],
  erpKinds: ['transfer'],
  steps: (t) => [{ syncType: 'TRANSFER_SYNC', build: () => mapTransfer(t) }],
  waiting: isReady,
  syncOn: [],
  syncButton: null,
  synced: { ...sinceSynced, timeOf: syncedAt },
};

const cashbacks: KindSpec<Cashback> = {
  name: 'cashbacks',
  noun: 'cashback',
  list: {
    path: '/cashbacks',
    item: Cashback,
    what: 'cashback',
    ready: readyStatus,
    requestedToSync: false,
    singleRead: false,
  },
  // docs/platform.md F14: cashbacks are reported as STATEMENT_CREDIT_SYNC.
  syncTypes: ['STATEMENT_CREDIT_SYNC'],
  erpKinds: ['cashback'],
  steps: (c) => [{ syncType: 'STATEMENT_CREDIT_SYNC', build: () => mapCashback(c) }],
  waiting: isReady,
  syncOn: [],
  syncButton: null,
  synced: { ...sinceSynced, timeOf: syncedAt },
};

const bills: KindSpec<Bill> = {
  name: 'bills',
  noun: 'bill',
  list: {
    path: '/bills',
    item: Bill,
    what: 'bill',
    ready: { sync_ready: true },
    requestedToSync: false,
    singleRead: true,
  },
  // docs/platform.md G23: a payment is reported only after its bill (BILL_SYNCED first).
  syncTypes: ['BILL_SYNC', 'BILL_PAYMENT_SYNC'],
  erpKinds: ['bill', 'bill_payment'],
  steps: (b) =>
    billSteps(b).map((syncType) => ({
      syncType,
      build: () => (syncType === 'BILL_SYNC' ? mapBill(b) : mapBillPayment(b)),
    })),
  waiting: (b) => billSteps(b).length > 0,
  // A paid bill may now wait for BILL_PAYMENT_SYNC (docs/platform.md G23).
  syncOn: ['bills.ready_to_sync', 'bills.paid'],
  syncButton: null,
  // Bills have no sync-time filter, only from_created_at (docs/platform.md G11).
  synced: {
    query: { sync_status: 'BILL_SYNCED' },
    since: 'from_created_at',
    timeOf: (b) => b.created_at ?? null,
  },
};

/** Every kind by name, each with its own object type (tests read a kind's typed list here). */
export const KIND_SPECS = {
  transactions,
  reimbursements,
  transfers,
  cashbacks,
  bills,
} as const satisfies { readonly [K in ObjectKindName]: KindSpec<PlatformObject> };

/** A kind's declaration as the generic pipeline uses it: over the objects every kind's are. */
export function kindSpec(kind: ObjectKindName): KindSpec<PlatformObject> {
  return KIND_SPECS[kind];
}

/** Every sync type in the order results must reach the platform. */
export const SYNC_TYPE_ORDER: readonly SyncType[] = OBJECT_KINDS.flatMap((k) => kindSpec(k).syncTypes);

/** The kind that reports a sync type; null for one no kind reports. */
export function kindOfSyncType(syncType: string): ObjectKindName | null {
  return OBJECT_KINDS.find((k) => (kindSpec(k).syncTypes as readonly string[]).includes(syncType)) ?? null;
}
