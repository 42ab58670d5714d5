import { invalid } from '../core/errors.ts';
import type { ObjectKind } from '../core/ids.ts';
import type { FieldSelection } from '../schemas/objects.ts';
import type { SyncBody as SyncRequest, StubSyncType as SyncType } from '../schemas/requests.ts';
import type { StubState } from '../state.ts';
import type { GenContext } from '../world/generate-common.ts';
import { needsVendorCreation } from '../world/generate-transaction.ts';
import { materialize } from '../world/materialize.ts';
import {
  B_ALL_SYNCED,
  B_BILL_SYNCED,
  B_NOT_SYNCED,
  FLAG_REQUESTED,
  FLAG_SYNC_DISABLED,
  type ObjectStore,
  S_READY,
  S_SYNCED,
} from '../world/object-store.ts';

/**
 * POST /accounting/syncs per item (docs/platform.md F14, F17, G20 and
 * G23): SYNCED moves the object on, FAILED records the message and keeps the object ready,
 * REJECTED (unknown, not ready for this sync type, already synced, blocked) changes nothing.
 */

const SYNC_KIND: Record<SyncType, ObjectKind | null> = {
  TRANSACTION_SYNC: 'transaction',
  REIMBURSEMENT_SYNC: 'reimbursement',
  BILL_SYNC: 'bill',
  BILL_PAYMENT_SYNC: 'bill',
  TRANSFER_SYNC: 'transfer',
  STATEMENT_CREDIT_SYNC: 'cashback',
  // No repayment, brokerage-order or wallet-transfer objects exist in the stub: every item of
  // these sync types is REJECTED as unknown (the last two: docs/platform.md F33).
  REPAYMENT_SYNC: null,
  BROKERAGE_ORDER_SYNC: null,
  WALLET_TRANSFER_SYNC: null,
};

/** One item of the answer (F14): in body order, successful first, then failed. */
interface SyncResult {
  id: string;
  status: 'SYNCED' | 'FAILED' | 'REJECTED';
  reason?: string;
}

/** The full answer (the platform guide); docs/platform.md F33's published form keeps only `sync_id`. */
export interface SyncResponse {
  sync_id: string;
  results: SyncResult[];
  sync_request_id: string | null;
}

type Verdict = { ok: true } | { ok: false; reason: string };

/** Checks beyond the schema that refuse the whole body (422) before any effect. */
export function checkSyncBody(state: StubState, body: SyncRequest): void {
  if (!body.successful_syncs && !body.failed_syncs) {
    throw invalid('one of successful_syncs or failed_syncs is required', {
      fields: ['successful_syncs', 'failed_syncs'],
    });
  }
  const bills = body.sync_type === 'BILL_SYNC' || body.sync_type === 'BILL_PAYMENT_SYNC';
  const linked = (body.successful_syncs ?? [])
    .map((item, index) => ({ index, id: item.id, has: item.deep_link_url !== undefined }))
    .filter((x) => x.has);
  if (!bills && linked.length > 0) {
    // F14: deep_link_url is for bills only.
    throw invalid('deep_link_url is accepted on bill syncs only', {
      fields: linked.map((x) => `successful_syncs.${x.index}.deep_link_url`),
      items: linked.map((x) => ({ list: 'successful_syncs', index: x.index, id: x.id })),
    });
  }
  if (body.sync_request_id !== undefined) {
    const request = state.syncRequests.get(body.sync_request_id);
    const kind = SYNC_KIND[body.sync_type];
    if (!request || request.kind !== kind) {
      throw invalid(`unknown sync_request_id for ${body.sync_type}`, { fields: ['sync_request_id'] });
    }
  }
}

type Mark = (id: string, index: number, result: SyncResult) => void;

export function applySync(state: StubState, body: SyncRequest, syncId: string): SyncResponse {
  const now = state.now();
  const kind = SYNC_KIND[body.sync_type];
  const context = state.effects.syncContext(syncId, body.idempotency_key, body.sync_request_id ?? null);
  const results: SyncResult[] = [];
  const mark: Mark = (id, index, result) => {
    results.push(result);
    state.effects.mark(
      {
        at: now,
        kind: index >= 0 ? kind : null,
        index,
        objectId: id,
        syncType: body.sync_type,
        result: result.status,
        syncId,
        idempotencyKey: body.idempotency_key,
        syncRequestId: body.sync_request_id ?? null,
      },
      context,
    );
  };
  markSuccessful(state, body, syncId, now, mark);
  markFailed(state, body, syncId, now, mark);
  return { sync_id: syncId, results, sync_request_id: body.sync_request_id ?? null };
}

function markSuccessful(state: StubState, body: SyncRequest, syncId: string, now: number, mark: Mark): void {
  const kind = SYNC_KIND[body.sync_type];
  const ctx = state.genContext();
  // Generating an object costs ~20 µs: only do it when a rule needs its codings.
  const checks: CodingChecks = {
    vendorCreation: ctx.settings?.transaction_accounting_vendor_creation_on_sync_enabled === true,
    inactiveItems: state.connections.active()?.chart.hasInactiveItems() ?? false,
  };
  for (const item of body.successful_syncs ?? []) {
    const index = kind ? state.world.indexOf(kind, item.id) : -1;
    if (!kind || index < 0) {
      mark(item.id, -1, { id: item.id, status: 'REJECTED', reason: 'unknown object' });
      continue;
    }
    const store = state.world.stores[kind];
    const verdict = judgeSuccess(ctx, checks, store, index, body.sync_type);
    if (!verdict.ok) {
      mark(item.id, index, { id: item.id, status: 'REJECTED', reason: verdict.reason });
      continue;
    }
    commitSuccess(store, index, body, now, syncId, item.reference_id, item.deep_link_url ?? null);
    mark(item.id, index, { id: item.id, status: 'SYNCED' });
  }
}

function markFailed(state: StubState, body: SyncRequest, syncId: string, now: number, mark: Mark): void {
  const kind = SYNC_KIND[body.sync_type];
  for (const item of body.failed_syncs ?? []) {
    const index = kind ? state.world.indexOf(kind, item.id) : -1;
    if (!kind || index < 0) {
      mark(item.id, -1, { id: item.id, status: 'REJECTED', reason: 'unknown object' });
      continue;
    }
    const store = state.world.stores[kind];
    const ready = readyFor(store, index, body.sync_type);
    if (!ready.ok) {
      mark(item.id, index, { id: item.id, status: 'REJECTED', reason: ready.reason });
      continue;
    }
    // F14: a failure keeps the object ready; the message is what the Accounting tab shows (rule 3).
    store.addFailure(index, {
      at: now,
      message: item.error.message,
      sync_type: body.sync_type,
      sync_id: syncId,
      source: 'integrator',
      sync_request_id: body.sync_request_id ?? null,
    });
    store.setFlag(index, FLAG_REQUESTED, false);
    mark(item.id, index, { id: item.id, status: 'FAILED' });
  }
}

/** Whether the object is in the state this sync type moves on from (docs/platform.md G23). */
export function readyFor(store: ObjectStore, index: number, syncType: SyncType): Verdict {
  const status = store.statusOf(index);
  if (!store.isBill) {
    if (status === S_SYNCED) return { ok: false, reason: 'already synced' };
    if (status !== S_READY) return { ok: false, reason: 'not ready to sync' };
    return { ok: true };
  }
  if (store.flagsOf(index) & FLAG_SYNC_DISABLED)
    return { ok: false, reason: 'accounting sync disabled for bill' };
  if (syncType === 'BILL_SYNC') {
    return status === B_NOT_SYNCED ? { ok: true } : { ok: false, reason: 'already synced' };
  }
  if (status === B_ALL_SYNCED) return { ok: false, reason: 'already synced' };
  if (status === B_NOT_SYNCED)
    return { ok: false, reason: 'bill must be BILL_SYNCED before BILL_PAYMENT_SYNC' };
  if (!store.isPaid(index)) return { ok: false, reason: 'bill is not paid' };
  return { ok: true };
}

interface CodingChecks {
  vendorCreation: boolean;
  inactiveItems: boolean;
}

function judgeSuccess(
  ctx: GenContext,
  checks: CodingChecks,
  store: ObjectStore,
  index: number,
  syncType: SyncType,
): Verdict {
  const ready = readyFor(store, index, syncType);
  if (!ready.ok) return ready;
  const vendorRule = checks.vendorCreation && store.kind === 'transaction';
  if (!vendorRule && !checks.inactiveItems) return ready;
  const object = materialize(ctx, store.kind, index) as unknown as Coded;
  if (vendorRule) {
    // docs/platform.md F17 / G26: no accounting vendor blocks a successful sync.
    if (needsVendorCreation(object)) {
      return { ok: false, reason: 'requires accounting vendor creation: code an accounting vendor first' };
    }
  }
  const all = [
    ...object.accounting_field_selections,
    ...(object.line_items ?? []).flatMap((l) => l.accounting_field_selections),
  ];
  // docs/platform.md G17: an inactive (deleted) item cannot be synced; HIDDEN still syncs.
  const inactive = all.find((s) => ctx.resolver.isInactive(s));
  if (inactive) return { ok: false, reason: `coded to inactive item ${inactive.external_id}` };
  return { ok: true };
}

interface Coded {
  accounting_field_selections: FieldSelection[];
  line_items?: Array<{ accounting_field_selections: FieldSelection[] }>;
}

function commitSuccess(
  store: ObjectStore,
  index: number,
  body: SyncRequest,
  now: number,
  syncId: string,
  referenceId: string,
  deepLink: string | null,
): void {
  const next =
    body.sync_type === 'BILL_SYNC'
      ? B_BILL_SYNCED
      : body.sync_type === 'BILL_PAYMENT_SYNC'
        ? B_ALL_SYNCED
        : S_SYNCED;
  store.setStatus(index, next, now);
  store.setFlag(index, FLAG_REQUESTED, false);
  store.addSync(index, {
    at: now,
    sync_type: body.sync_type,
    reference_id: referenceId,
    deep_link_url: deepLink,
    sync_id: syncId,
  });
}
