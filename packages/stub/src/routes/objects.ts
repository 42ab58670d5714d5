import { pageOf } from '../../../../src/platform/schemas/common.ts';
import { invalid } from '../core/errors.ts';
import { kindPath, type ObjectKind } from '../core/ids.ts';
import type { IndexSet } from '../core/index-set.ts';
import type { RouteContext, RouteDef } from '../core/route.ts';
import {
  Bill,
  BillSyncStatus,
  Cashback,
  ListBillsQuery,
  ListReimbursementsQuery,
  ListSimpleObjectsQuery,
  ListTransactionsQuery,
  Reimbursement,
  Transaction,
  TransactionSyncStatus,
  Transfer,
} from '../schemas/objects.ts';
import { billRemoteId, billStatusSummary, billVendorIndexOf } from '../world/generate-bill.ts';
import { entityIdOf } from '../world/generate-common.ts';
import { transactionApproval } from '../world/generate-transaction.ts';
import { FLAG_SYNC_DISABLED, type ObjectStore, S_READY, S_SYNCED } from '../world/object-store.ts';
import { type ScanPlan, scanPage } from '../world/scan.ts';
import { emptyProbePage, ok, pageReply, parseTime, query } from './helpers.ts';

/**
 * Ready-object reads (docs/platform.md F16, F28; the platform guide's transactions and bills
 * filters). A page seeks an ordered index (per sync status, ready, requested) from the cursor and
 * generates only the objects it returns, so its cost does not grow with the world. Other filters
 * are predicates on stored state or on values derived without generating the object; filters
 * that no generated object can satisfy answer an empty page at once.
 */

const SCOPES: Record<ObjectKind, string> = {
  transaction: 'transactions:read',
  reimbursement: 'reimbursements:read',
  transfer: 'transfers:read',
  cashback: 'cashbacks:read',
  bill: 'bills:read',
};

type Predicate = (i: number) => boolean;

/** Every filter a list of a non-bill kind may carry (each kind's schema picks its own). */
interface ObjectListQuery {
  start?: string;
  page_size: number;
  sync_status?: TransactionSyncStatus;
  sync_ready?: boolean;
  has_no_sync_commits?: boolean;
  has_no_sync_commit?: boolean;
  requested_to_sync?: boolean;
  state?: string;
  approval_status?: string;
  synced_after?: string;
  updated_after?: string;
  from_date?: string;
  to_date?: string;
  entity_id?: string;
}

function cursorIndex(ctx: RouteContext, kind: ObjectKind, start: string | undefined): number {
  if (start === undefined) return 0;
  const index = ctx.state.world.indexOf(kind, start);
  if (index < 0) throw invalid('start is not an id of this list', { fields: ['start'] });
  return index + 1;
}

/** Common bounds and filters: cursor, from/to dates (generated times grow with the index), entity. */
function basePlan(
  ctx: RouteContext,
  kind: ObjectKind,
  q: { start?: string; from_date?: string; to_date?: string; entity_id?: string },
  fromField = 'from_date',
) {
  const store = ctx.state.world.stores[kind];
  const fromTime = parseTime(q.from_date, fromField);
  const toTime = parseTime(q.to_date, 'to_date');
  const from = Math.max(
    cursorIndex(ctx, kind, q.start),
    fromTime === undefined ? 0 : ctx.state.world.indexAtOrAfter(kind, fromTime),
  );
  const to = Math.min(
    store.count,
    toTime === undefined ? store.count : ctx.state.world.indexAtOrAfter(kind, toTime + 1),
  );
  const predicates: Predicate[] = [];
  if (q.entity_id !== undefined) predicates.push((i) => entityIdOf(ctx.state.world, kind, i) === q.entity_id);
  return { store, from, to, predicates };
}

function runPage(ctx: RouteContext, kind: ObjectKind, plan: ScanPlan, pageSize: number) {
  const faulty = emptyProbePage(ctx);
  if (faulty) return faulty;
  const result = scanPage(plan, pageSize);
  const gen = ctx.state.genContext();
  const data = result.indices.map((i) => ctx.state.objectJson(kind, i, gen));
  return pageReply(ctx, data, result.more ? ctx.state.world.idOf(kind, result.resumeAfter) : null);
}

const all = (predicates: Predicate[]): Predicate | undefined =>
  predicates.length === 0 ? undefined : (i) => predicates.every((p) => p(i));

/** Narrows the scan to `next` (or keeps it as a predicate when a set is already chosen). */
function within(set: IndexSet | null, next: IndexSet, predicates: Predicate[]): IndexSet {
  if (set) {
    predicates.push((i) => next.has(i));
    return set;
  }
  return next;
}

/**
 * Sync-state filters of transactions, reimbursements, transfers and cashbacks: F16 `sync_status`,
 * and docs/platform.md F28 `sync_ready` (SYNC_READY or not) and `has_no_sync_commits` (never
 * synced, i.e. not SYNCED; the platform guide spells it `has_no_sync_commit`). `sync_status`
 * supersedes the other two when both are given (F28).
 */
function syncStateSet(store: ObjectStore, q: ObjectListQuery, predicates: Predicate[]): IndexSet | null {
  if (q.sync_status !== undefined)
    return store.byStatus[TransactionSyncStatus.options.indexOf(q.sync_status)]!;
  let set: IndexSet | null = null;
  if (q.sync_ready === true) set = store.byStatus[S_READY]!;
  else if (q.sync_ready === false) predicates.push((i) => store.statusOf(i) !== S_READY);
  const noCommits = q.has_no_sync_commits ?? q.has_no_sync_commit;
  if (noCommits === true) predicates.push((i) => store.statusOf(i) !== S_SYNCED);
  else if (noCommits === false) set = within(set, store.byStatus[S_SYNCED]!, predicates);
  return set;
}

function listObjects(ctx: RouteContext, kind: ObjectKind, q: ObjectListQuery) {
  const { store, from, to, predicates } = basePlan(ctx, kind, q);
  const syncedAfter = parseTime(q.synced_after, 'synced_after');
  const updatedAfter = parseTime(q.updated_after, 'updated_after');
  let set = syncStateSet(store, q, predicates);
  if (syncedAfter !== undefined) {
    // Platform guide: synced_after filters by sync time, so only synced objects qualify.
    set = within(set, store.byStatus[S_SYNCED]!, predicates);
    predicates.push((i) => store.syncedAtOf(i) > syncedAfter);
  }
  if (q.requested_to_sync === true) {
    if (set) {
      const bySet = set;
      predicates.push((i) => bySet.has(i));
    }
    set = store.requested;
  } else if (q.requested_to_sync === false) predicates.push((i) => !store.isRequested(i));
  if (updatedAfter !== undefined) {
    // updated_at = latest of settlement (a day after the spend), sync time and coding time.
    predicates.push(
      (i) =>
        ctx.state.world.timeOf(kind, i) + 86_400_000 > updatedAfter ||
        Math.max(store.syncedAtOf(i), store.peekExtras(i)?.codedAt ?? 0) > updatedAfter,
    );
  }
  let end = to;
  // F28 `state`: every generated transaction is CLEARED (ALL lists every state).
  if (q.state !== undefined && q.state !== 'ALL' && q.state !== 'CLEARED') end = from;
  if (q.approval_status !== undefined) {
    // F28 `approval_status`: not-ready transactions await their reviewer, the others are approved.
    const wanted = q.approval_status;
    if (wanted !== 'FULLY_APPROVED' && wanted !== 'AWAITING_REVIEWER') end = from;
    else predicates.push((i) => transactionApproval(store.statusOf(i)) === wanted);
  }
  return runPage(ctx, kind, { set, from, to: end, predicate: all(predicates) }, q.page_size);
}

/** Whether PATCH /__stub/objects set `key` on the object, and to what. */
function overrideOf(store: ObjectStore, i: number, key: string): { value: unknown } | null {
  const overrides = store.peekExtras(i)?.overrides;
  return overrides && key in overrides ? { value: overrides[key] } : null;
}

/**
 * GET /bills: the platform guide's filters and docs/platform.md F28's `payment_status`,
 * `approval_status`, `status_summary` and `remote_id`. On bills `sync_status` and `sync_ready`
 * combine (the guide's payment-only candidates: sync_status=BILL_SYNCED and sync_ready=true).
 */
function listBills(ctx: RouteContext) {
  const q = query(ctx, ListBillsQuery);
  const kind: ObjectKind = 'bill';
  const { store, from, to, predicates } = basePlan(
    ctx,
    kind,
    { start: q.start, from_date: q.from_created_at, entity_id: q.entity_id },
    'from_created_at',
  );
  const world = ctx.state.world;
  let set: IndexSet | null = null;
  let end = to;
  if (q.sync_ready === true) set = store.ready;
  else if (q.sync_ready === false) predicates.push((i) => !store.ready.has(i));
  if (q.sync_status !== undefined) {
    set = within(set, store.byStatus[BillSyncStatus.options.indexOf(q.sync_status)]!, predicates);
  }
  for (const paid of [q.status, q.payment_status]) {
    if (paid !== undefined) predicates.push((i) => store.isPaid(i) === (paid === 'PAID'));
  }
  // Every generated bill is approved; its summary follows payment.
  if (q.approval_status !== undefined && q.approval_status !== 'APPROVED') end = from;
  if (q.status_summary !== undefined) {
    const summary = q.status_summary;
    if (summary !== billStatusSummary(true) && summary !== billStatusSummary(false)) end = from;
    else predicates.push((i) => billStatusSummary(store.isPaid(i)) === summary);
  }
  if (q.is_accounting_sync_enabled !== undefined) {
    const enabled = q.is_accounting_sync_enabled;
    predicates.push((i) => ((store.flagsOf(i) & FLAG_SYNC_DISABLED) === 0) === enabled);
  }
  if (q.vendor_id !== undefined) {
    const vendorId = q.vendor_id;
    predicates.push((i) => {
      const o = overrideOf(store, i, 'vendor_id');
      if (o) return o.value === vendorId;
      const at = billVendorIndexOf(world, i);
      return at >= 0 && world.vendors[at]!.id === vendorId;
    });
  }
  if (q.remote_id !== undefined) {
    // The ERP's id of the bill: the reference_id of its last BILL_SYNC (or an override).
    const remoteId = q.remote_id;
    predicates.push((i) => {
      const o = overrideOf(store, i, 'remote_id');
      return (o ? o.value : billRemoteId(store, i)) === remoteId;
    });
  }
  return runPage(ctx, kind, { set, from, to: end, predicate: all(predicates) }, q.page_size);
}

function routesFor(
  kind: ObjectKind,
  schema:
    | typeof ListTransactionsQuery
    | typeof ListReimbursementsQuery
    | typeof ListSimpleObjectsQuery
    | typeof ListBillsQuery,
  item: typeof Transaction | typeof Reimbursement | typeof Transfer | typeof Cashback | typeof Bill,
  summary: string,
): RouteDef[] {
  const path = `/${kindPath(kind)}`;
  return [
    {
      method: 'GET',
      path,
      scope: SCOPES[kind],
      tag: 'objects',
      summary,
      query: schema,
      response: pageOf(item),
      handler: (ctx) =>
        kind === 'bill' ? listBills(ctx) : listObjects(ctx, kind, query(ctx, schema) as ObjectListQuery),
    },
    {
      method: 'GET',
      path: `${path}/:id`,
      scope: SCOPES[kind],
      tag: 'objects',
      summary: `One ${kind} by id`,
      response: item,
      handler(ctx) {
        return ok(ctx.state.objectJson(kind, ctx.state.requireIndex(kind, ctx.params.id!)));
      },
    },
  ];
}

export const objectRoutes: RouteDef[] = [
  ...routesFor(
    'transaction',
    ListTransactionsQuery,
    Transaction,
    'Transactions (F16 sync_status, requested_to_sync, synced_after; F28 sync_ready, has_no_sync_commits, state, approval_status)',
  ),
  ...routesFor(
    'reimbursement',
    ListReimbursementsQuery,
    Reimbursement,
    'Reimbursements (F16; F28 sync_ready, has_no_sync_commits)',
  ),
  ...routesFor(
    'transfer',
    ListSimpleObjectsQuery,
    Transfer,
    'Transfers (F16; F28 sync_ready, has_no_sync_commits)',
  ),
  ...routesFor(
    'cashback',
    ListSimpleObjectsQuery,
    Cashback,
    'Cashbacks (F16; F28 sync_ready, has_no_sync_commits)',
  ),
  ...routesFor(
    'bill',
    ListBillsQuery,
    Bill,
    'Bills (F16 sync_ready, sync_status, from_created_at; F28 payment_status, approval_status, status_summary, remote_id)',
  ),
];
