import { ApiError, invalid } from './core/errors.ts';
import { kindPath, type ObjectKind } from './core/ids.ts';
import { syncRequestJson } from './rules/sync-window.ts';
import type { StubState } from './state.ts';
import {
  B_BILL_SYNCED,
  B_NOT_SYNCED,
  FLAG_PAID,
  FLAG_REQUESTED,
  FLAG_SYNC_DISABLED,
  S_NOT_READY,
  S_READY,
} from './world/object-store.ts';

/**
 * Things that happen on the platform side (a user marks objects ready, presses the sync button,
 * a bill gets paid), shared by the control routes, the platform routes and in-process callers.
 * Each emits the webhook the live service sends (docs/platform.md G12, F21).
 */

/** Objects whose user-side readiness can be toggled, and the event they emit. */
const READY_EVENT: Partial<Record<ObjectKind, string>> = {
  transaction: 'transactions.ready_to_sync',
  reimbursement: 'reimbursements.ready_to_sync',
  bill: 'bills.ready_to_sync',
};

function indicesOf(state: StubState, kind: ObjectKind, ids: string[]): number[] {
  const unknown: string[] = [];
  const out = ids.map((id) => {
    const i = state.world.indexOf(kind, id);
    if (i < 0) unknown.push(id);
    return i;
  });
  if (unknown.length > 0)
    throw invalid(`unknown ${kind} id(s): ${unknown.slice(0, 10).join(', ')}`, { unknown_ids: unknown });
  return out;
}

/**
 * Makes objects ready: NOT_SYNC_READY → SYNC_READY (docs/platform.md G20); bills get accounting
 * sync enabled. Objects already ready or synced are left alone. Returns the ids that changed.
 */
export function makeReady(state: StubState, kind: ObjectKind, ids: string[]): string[] {
  const store = state.world.stores[kind];
  const changed: string[] = [];
  for (const index of indicesOf(state, kind, ids)) {
    const before = store.ready.has(index);
    if (kind === 'bill') store.setFlag(index, FLAG_SYNC_DISABLED, false);
    else if (store.statusOf(index) === S_NOT_READY) store.setStatus(index, S_READY, state.now());
    if (!before && store.ready.has(index)) {
      store.extrasOf(index).readyAt = state.now();
      changed.push(state.world.idOf(kind, index));
    }
  }
  const event = READY_EVENT[kind];
  if (event) for (const id of changed) state.webhooks.emit(event, { id });
  return changed;
}

/**
 * The customer presses the sync button (docs/platform.md G28): the chosen rows (default: every ready
 * row, up to `limit`) become requested_to_sync under a new sync_request_id with a 5-minute
 * deadline, and `*.sync_requested` is sent carrying the id.
 */
export function pressSyncButton(state: StubState, kind: ObjectKind, ids: string[] | undefined, limit = 5000) {
  if (kind !== 'transaction' && kind !== 'reimbursement')
    throw invalid('object_type must be TRANSACTION or REIMBURSEMENT');
  const connection = state.connections.active();
  const flag =
    kind === 'transaction' ? 'transaction_sync_button_enabled' : 'reimbursement_sync_button_enabled';
  if (!connection?.settings[flag]) {
    throw new ApiError(
      'DEVELOPER_7001',
      `the sync button needs the ${flag} setting on the active connection`,
      { setting: flag },
      409,
    );
  }
  const store = state.world.stores[kind];
  let indices: number[];
  if (ids) indices = indicesOf(state, kind, ids).filter((i) => store.statusOf(i) === S_READY);
  else {
    indices = [];
    for (let i = store.ready.next(0); i !== -1 && indices.length < limit; i = store.ready.next(i + 1))
      indices.push(i);
  }
  const now = state.now();
  const request = state.syncRequests.create(kind, indices, now, state.config.syncWindowMs);
  for (const i of indices) {
    store.setFlag(i, FLAG_REQUESTED, true);
    const extras = store.extrasOf(i);
    extras.syncRequestId = request.id;
    extras.requestedAt = now;
  }
  // The event is stamped with the press itself, so created_at + 5 minutes is the request's deadline.
  state.webhooks.emit(
    `${kindPath(kind)}.sync_requested`,
    { id: request.id, sync_request_id: request.id, object_type: kind.toUpperCase() },
    now,
  );
  return syncRequestJson(request, (k, i) => state.world.idOf(k, i));
}

/** A bill's payment clears (docs/platform.md G22: OPEN → PAID, bills.paid). */
export function payBill(state: StubState, id: string): { id: string; became_ready: boolean } {
  const index = state.requireIndex('bill', id);
  const store = state.world.stores.bill;
  if (store.isPaid(index)) throw new ApiError('DEVELOPER_7001', `bill ${id} is already paid`, { id }, 409);
  store.setFlag(index, FLAG_PAID, true);
  store.extrasOf(index).paidAt = state.now();
  state.webhooks.emit('bills.paid', { id });
  // A BILL_SYNCED bill that is now PAID is ready for BILL_PAYMENT_SYNC; a NOT_SYNCED one already was ready.
  const becameReady = store.statusOf(index) === B_BILL_SYNCED && store.ready.has(index);
  if (becameReady) state.webhooks.emit('bills.ready_to_sync', { id });
  return { id, became_ready: becameReady };
}

/**
 * New objects arrive after seeding (POST /__stub/objects/{type}): appended with the latest
 * segment's seed rules, ready, and announced (bills: created, approved, ready_to_sync).
 */
export function addObjects(state: StubState, kind: ObjectKind, count: number, ready: boolean): string[] {
  const store = state.world.stores[kind];
  const segments = state.world.segments[kind];
  const last = segments[segments.length - 1];
  if (!last) throw new ApiError('DEVELOPER_7001', 'seed a world first (POST /__stub/seed)', {}, 409);
  const start = store.count;
  segments.push({ ...last, start, end: start + count, seed: last.seed + segments.length });
  const status = kind === 'bill' ? B_NOT_SYNCED : ready ? S_READY : S_NOT_READY;
  store.append(count, () => ({ status, flags: 0, syncedAt: 0 }));
  const ids = Array.from({ length: count }, (_, n) => state.world.idOf(kind, start + n));
  for (const id of ids) {
    if (kind === 'bill') {
      state.webhooks.emit('bills.created', { id });
      state.webhooks.emit('bills.approved', { id });
    }
    const event = READY_EVENT[kind];
    if (event && ready) state.webhooks.emit(event, { id });
  }
  return ids;
}
