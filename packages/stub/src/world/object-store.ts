import { KIND_CODE, type ObjectKind } from '../core/ids.ts';
import { IndexSet } from '../core/index-set.ts';
import type { FieldSelection } from '../schemas/objects.ts';

/**
 * The mutable state of one kind of ready object, kept compactly so 1,000,000 transactions fit:
 * per index a status byte, a flag byte and a sync time, plus ordered index sets per status
 * (IndexSet) for cursor seeks. Everything else about an object is generated from its index
 * (see generate-*.ts); only objects that were touched (coded, failed, synced by the API) get an
 * entry in `extras`.
 */

/** Status codes: transactions, reimbursements, transfers, cashbacks (F16). */
const TXN_STATUS = ['NOT_SYNC_READY', 'SYNC_READY', 'SYNCED'] as const;
/** Status codes: bills (F16). */
const BILL_STATUS = ['NOT_SYNCED', 'BILL_SYNCED', 'BILL_AND_PAYMENT_SYNCED'] as const;

export const S_NOT_READY = 0;
export const S_READY = 1;
export const S_SYNCED = 2;
export const B_NOT_SYNCED = 0;
export const B_BILL_SYNCED = 1;
export const B_ALL_SYNCED = 2;

export const FLAG_REQUESTED = 1;
export const FLAG_PAID = 2;
export const FLAG_SYNC_DISABLED = 4;

export interface FailureRecord {
  at: number;
  message: string;
  sync_type: string;
  sync_id: string | null;
  source: 'integrator' | 'sync_window';
  sync_request_id: string | null;
}

export interface SyncRecord {
  at: number;
  sync_type: string;
  reference_id: string;
  deep_link_url: string | null;
  sync_id: string;
}

export interface ObjectExtras {
  /** Body-level selections set by POST /accounting/codings (F18), by field external id. */
  codings?: Map<string, FieldSelection>;
  codedAt?: number;
  failures?: FailureRecord[];
  syncs?: SyncRecord[];
  syncRequestId?: string;
  requestedAt?: number;
  paidAt?: number;
  readyAt?: number;
  /** Fields merged over the generated object (PATCH /__stub/objects). */
  overrides?: Record<string, unknown>;
}

export class ObjectStore {
  readonly code: number;
  count = 0;
  private status = new Uint8Array(1024);
  private flags = new Uint8Array(1024);
  private syncedAt = new Float64Array(1024);
  readonly byStatus: IndexSet[] = [new IndexSet(), new IndexSet(), new IndexSet()];
  readonly requested = new IndexSet();
  /** Bills: sync_ready (F16: NOT_SYNCED, or BILL_SYNCED and PAID). Others: SYNC_READY. */
  readonly ready: IndexSet;
  readonly extras = new Map<number, ObjectExtras>();

  constructor(readonly kind: ObjectKind) {
    this.code = KIND_CODE[kind];
    this.ready = kind === 'bill' ? new IndexSet() : this.byStatus[S_READY]!;
  }

  get isBill(): boolean {
    return this.kind === 'bill';
  }

  /** Appends `n` objects; `init(i)` gives each one's status, flags and sync time. */
  append(n: number, init: (i: number) => { status: number; flags: number; syncedAt: number }): number {
    const start = this.count;
    this.grow(start + n);
    for (let i = start; i < start + n; i++) {
      const s = init(i);
      this.status[i] = s.status;
      this.flags[i] = s.flags;
      this.syncedAt[i] = s.syncedAt;
      this.byStatus[s.status]!.add(i);
      if (s.flags & FLAG_REQUESTED) this.requested.add(i);
      if (this.isBill && this.billReady(i)) this.ready.add(i);
    }
    this.count = start + n;
    return start;
  }

  has(i: number): boolean {
    return Number.isInteger(i) && i >= 0 && i < this.count;
  }

  statusOf(i: number): number {
    return this.status[i]!;
  }

  statusName(i: number): string {
    return (this.isBill ? BILL_STATUS : TXN_STATUS)[this.status[i]!]!;
  }

  flagsOf(i: number): number {
    return this.flags[i]!;
  }

  syncedAtOf(i: number): number {
    return this.syncedAt[i]!;
  }

  isPaid(i: number): boolean {
    return (this.flags[i]! & FLAG_PAID) !== 0;
  }

  isRequested(i: number): boolean {
    return (this.flags[i]! & FLAG_REQUESTED) !== 0;
  }

  setStatus(i: number, status: number, at: number): void {
    const old = this.status[i]!;
    if (old === status) return;
    this.byStatus[old]!.delete(i);
    this.byStatus[status]!.add(i);
    this.status[i] = status;
    if (status !== 0) this.syncedAt[i] = at;
    this.refreshBillReady(i);
  }

  setFlag(i: number, flag: number, on: boolean): void {
    const before = this.flags[i]!;
    const after = on ? before | flag : before & ~flag;
    if (before === after) return;
    this.flags[i] = after;
    if (flag === FLAG_REQUESTED) {
      if (on) this.requested.add(i);
      else this.requested.delete(i);
    }
    this.refreshBillReady(i);
  }

  /** docs/platform.md G23: ready when NOT_SYNCED, or BILL_SYNCED and PAID. */
  billReady(i: number): boolean {
    if (this.flags[i]! & FLAG_SYNC_DISABLED) return false;
    const s = this.status[i]!;
    return s === B_NOT_SYNCED || (s === B_BILL_SYNCED && this.isPaid(i));
  }

  extrasOf(i: number): ObjectExtras {
    let e = this.extras.get(i);
    if (!e) {
      e = {};
      this.extras.set(i, e);
    }
    return e;
  }

  addFailure(i: number, failure: FailureRecord): void {
    const extras = this.extrasOf(i);
    extras.failures = [...(extras.failures ?? []), failure];
  }

  addSync(i: number, sync: SyncRecord): void {
    const extras = this.extrasOf(i);
    if (extras.syncs) extras.syncs.push(sync);
    else extras.syncs = [sync];
  }

  peekExtras(i: number): ObjectExtras | undefined {
    return this.extras.get(i);
  }

  clear(): void {
    this.count = 0;
    for (const set of this.byStatus) set.clear();
    this.requested.clear();
    if (this.isBill) this.ready.clear();
    this.extras.clear();
    this.status.fill(0);
    this.flags.fill(0);
    this.syncedAt.fill(0);
  }

  private refreshBillReady(i: number): void {
    if (!this.isBill) return;
    if (this.billReady(i)) this.ready.add(i);
    else this.ready.delete(i);
  }

  private grow(min: number): void {
    if (min <= this.status.length) return;
    let length = this.status.length;
    while (length < min) length *= 2;
    const status = new Uint8Array(length);
    status.set(this.status);
    const flags = new Uint8Array(length);
    flags.set(this.flags);
    const syncedAt = new Float64Array(length);
    syncedAt.set(this.syncedAt);
    this.status = status;
    this.flags = flags;
    this.syncedAt = syncedAt;
    for (const set of this.byStatus) set.ensure(length);
    this.requested.ensure(length);
    this.ready.ensure(length);
  }
}
