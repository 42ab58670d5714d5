import type { z } from 'zod';
import {
  Bill,
  BillSyncStatus,
  Cashback,
  ListBillsQuery,
  ListSimpleObjectsQuery,
  ListTransactionsQuery,
  Reimbursement,
  Transaction,
  TransactionSyncStatus,
  Transfer,
} from '../../platform/schemas/objects.ts';
import { invalid } from '../core/errors.ts';
import { kindPath, type ObjectKind } from '../core/ids.ts';
import type { RouteContext, RouteDef } from '../core/router.ts';
import { entityIdOf } from '../world/generate-common.ts';
import { FLAG_SYNC_DISABLED, S_SYNCED } from '../world/object-store.ts';
import { type ScanPlan, scanPage } from '../world/scan.ts';
import { indexAtOrAfter, timeOf } from '../world/world.ts';
import { ok, pageReply, parseTime, query } from './helpers.ts';

/**
 * Ready-object reads (PLATFORM-FACTS F16; spec 000 transactions filters, spec 001 bills filters).
 * A page seeks the per-status ordered index from the cursor and generates only the objects it
 * returns, so its cost does not grow with the world.
 */

const SCOPES: Record<ObjectKind, string> = {
  transaction: 'transactions:read',
  reimbursement: 'reimbursements:read',
  transfer: 'transfers:read',
  cashback: 'cashbacks:read',
  bill: 'bills:read',
};

type Predicate = (i: number) => boolean;

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
    fromTime === undefined ? 0 : indexAtOrAfter(kind, fromTime),
  );
  const to = Math.min(store.count, toTime === undefined ? store.count : indexAtOrAfter(kind, toTime + 1));
  const predicates: Predicate[] = [];
  if (q.entity_id !== undefined) predicates.push((i) => entityIdOf(ctx.state.world, kind, i) === q.entity_id);
  return { store, from, to, predicates };
}

function runPage(ctx: RouteContext, kind: ObjectKind, plan: ScanPlan, pageSize: number) {
  const result = scanPage(plan, pageSize);
  const gen = ctx.state.genContext();
  const data = result.indices.map((i) => ctx.state.objectJson(kind, i, gen));
  return pageReply(ctx, data, result.more ? ctx.state.world.idOf(kind, result.resumeAfter) : null);
}

const all = (predicates: Predicate[]): Predicate | undefined =>
  predicates.length === 0 ? undefined : (i) => predicates.every((p) => p(i));

function listObjects(ctx: RouteContext, kind: ObjectKind, schema: z.ZodType) {
  const q = query(ctx, schema) as z.infer<typeof ListTransactionsQuery>;
  const { store, from, to, predicates } = basePlan(ctx, kind, q);
  const status = q.sync_status === undefined ? -1 : TransactionSyncStatus.options.indexOf(q.sync_status);
  const syncedAfter = parseTime(q.synced_after, 'synced_after');
  const updatedAfter = parseTime(q.updated_after, 'updated_after');
  let set = status >= 0 ? store.byStatus[status]! : null;
  if (syncedAfter !== undefined) {
    // spec 000: synced_after filters by sync time, so only synced objects qualify.
    if (status < 0) set = store.byStatus[S_SYNCED]!;
    predicates.push((i) => store.syncedAtOf(i) > syncedAfter);
  }
  if (q.requested_to_sync === 'true') {
    if (set) {
      const bySet = set;
      predicates.push((i) => bySet.has(i));
    }
    set = store.requested;
  } else if (q.requested_to_sync === 'false') predicates.push((i) => !store.isRequested(i));
  if (updatedAfter !== undefined) {
    // updated_at = latest of settlement (a day after the spend), sync time and coding time.
    predicates.push(
      (i) =>
        timeOf(kind, i) + 86_400_000 > updatedAfter ||
        Math.max(store.syncedAtOf(i), store.peekExtras(i)?.codedAt ?? 0) > updatedAfter,
    );
  }
  return runPage(ctx, kind, { set, from, to, predicate: all(predicates) }, q.page_size);
}

function listBills(ctx: RouteContext) {
  const q = query(ctx, ListBillsQuery);
  const kind: ObjectKind = 'bill';
  const { store, from, to, predicates } = basePlan(
    ctx,
    kind,
    { start: q.start, from_date: q.from_created_at, entity_id: q.entity_id },
    'from_created_at',
  );
  let set = null;
  if (q.sync_ready === 'true') set = store.ready;
  else if (q.sync_ready === 'false') predicates.push((i) => !store.ready.has(i));
  if (q.sync_status !== undefined) {
    const code = BillSyncStatus.options.indexOf(q.sync_status);
    if (set) predicates.push((i) => store.statusOf(i) === code);
    else set = store.byStatus[code]!;
  }
  if (q.status !== undefined) predicates.push((i) => store.isPaid(i) === (q.status === 'PAID'));
  if (q.is_accounting_sync_enabled !== undefined) {
    const enabled = q.is_accounting_sync_enabled === 'true';
    predicates.push((i) => ((store.flagsOf(i) & FLAG_SYNC_DISABLED) === 0) === enabled);
  }
  if (q.vendor_id !== undefined || q.remote_id !== undefined) {
    const gen = ctx.state.genContext();
    predicates.push((i) => {
      const bill = ctx.state.objectJson(kind, i, gen) as Bill;
      return (
        (q.vendor_id === undefined || bill.vendor_id === q.vendor_id) &&
        (q.remote_id === undefined || bill.remote_id === q.remote_id)
      );
    });
  }
  return runPage(ctx, kind, { set, from, to, predicate: all(predicates) }, q.page_size);
}

function routesFor(kind: ObjectKind, schema: z.ZodType, item: z.ZodType, summary: string): RouteDef[] {
  const path = `/${kindPath(kind)}`;
  return [
    {
      method: 'GET',
      path,
      scope: SCOPES[kind],
      tag: 'objects',
      summary,
      query: schema,
      handler: (ctx) => (kind === 'bill' ? listBills(ctx) : listObjects(ctx, kind, schema)),
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
    'Transactions (F16: sync_status, requested_to_sync, synced_after)',
  ),
  ...routesFor('reimbursement', ListTransactionsQuery, Reimbursement, 'Reimbursements (F16)'),
  ...routesFor('transfer', ListSimpleObjectsQuery, Transfer, 'Transfers (F16)'),
  ...routesFor('cashback', ListSimpleObjectsQuery, Cashback, 'Cashbacks (F16)'),
  ...routesFor('bill', ListBillsQuery, Bill, 'Bills (F16: sync_ready, sync_status, from_created_at)'),
];
