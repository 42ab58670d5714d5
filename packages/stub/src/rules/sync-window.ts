import { randomUUID } from 'node:crypto';
import type { ObjectKind } from '../core/ids.ts';
import type { Effects } from '../effects.ts';
import { FLAG_REQUESTED, type ObjectStore } from '../world/object-store.ts';

/**
 * The sync-button window (docs/platform.md G29 and G28): pressing the button
 * makes a sync request over some rows (requested_to_sync=true) with a deadline 5 minutes later;
 * rows not posted by then are marked failed by the platform. Driven by the stub clock, so
 * POST /__stub/clock crosses the window without waiting.
 */

const SYNC_WINDOW_MESSAGE = 'Sync request expired: no result was posted within 5 minutes';

export interface SyncRequestRecord {
  id: string;
  kind: ObjectKind;
  indices: number[];
  createdAt: number;
  deadline: number;
  open: boolean;
  expiredRows: number;
}

export class SyncRequests {
  private readonly byId = new Map<string, SyncRequestRecord>();
  /** Open requests in creation order (deadlines grow with it). */
  private open: SyncRequestRecord[] = [];

  create(kind: ObjectKind, indices: number[], now: number, windowMs: number): SyncRequestRecord {
    const record: SyncRequestRecord = {
      id: randomUUID(),
      kind,
      indices,
      createdAt: now,
      deadline: now + windowMs,
      open: true,
      expiredRows: 0,
    };
    this.byId.set(record.id, record);
    this.open.push(record);
    return record;
  }

  get(id: string): SyncRequestRecord | undefined {
    return this.byId.get(id);
  }

  all(): SyncRequestRecord[] {
    return [...this.byId.values()];
  }

  /**
   * Closes every request past its deadline: each of its rows still requested under it (not
   * posted, not re-requested) gets a failure record and leaves the requested set; the object
   * stays ready (a failed sync keeps it ready, F14).
   */
  sweep(now: number, store: (kind: ObjectKind) => ObjectStore, effects: Effects): number {
    let expired = 0;
    while (this.open.length > 0 && this.open[0]!.deadline <= now) {
      const record = this.open.shift()!;
      record.open = false;
      const objects = store(record.kind);
      const context = effects.syncContext(null, null, record.id);
      for (const index of record.indices) {
        const extras = objects.peekExtras(index);
        if (!objects.isRequested(index) || extras?.syncRequestId !== record.id) continue;
        objects.setFlag(index, FLAG_REQUESTED, false);
        objects.addFailure(index, {
          at: record.deadline,
          message: SYNC_WINDOW_MESSAGE,
          sync_type: record.kind === 'reimbursement' ? 'REIMBURSEMENT_SYNC' : 'TRANSACTION_SYNC',
          sync_id: null,
          source: 'sync_window',
          sync_request_id: record.id,
        });
        effects.mark(
          {
            at: record.deadline,
            kind: record.kind,
            index,
            objectId: '',
            syncType: record.kind === 'reimbursement' ? 'REIMBURSEMENT_SYNC' : 'TRANSACTION_SYNC',
            result: 'EXPIRED',
            syncId: null,
            idempotencyKey: null,
            syncRequestId: record.id,
          },
          context,
        );
        record.expiredRows++;
        expired++;
      }
    }
    return expired;
  }

  reset(): void {
    this.byId.clear();
    this.open = [];
  }
}

export function syncRequestJson(r: SyncRequestRecord, idOf: (kind: ObjectKind, i: number) => string) {
  return {
    sync_request_id: r.id,
    object_type: r.kind.toUpperCase(),
    object_ids: r.indices.map((i) => idOf(r.kind, i)),
    created_at: new Date(r.createdAt).toISOString(),
    deadline: new Date(r.deadline).toISOString(),
    open: r.open,
    expired_rows: r.expiredRows,
  };
}
