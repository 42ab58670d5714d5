import { Column, Interner } from './core/columns.ts';
import { OBJECT_KINDS, type ObjectKind } from './core/ids.ts';

/**
 * What happened, for tests to prove it: every platform arrival (time, method, route, source IP,
 * status) and every per-item sync mark (GET /__stub/effects). Columnar logs: ~25 bytes a row,
 * so 1,000,000 marks or arrivals cost ~25 MB, and reads page by sequence number (`since`).
 */

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OTHER'];
const MARK_RESULTS = ['SYNCED', 'FAILED', 'REJECTED', 'EXPIRED'] as const;
type MarkResult = (typeof MARK_RESULTS)[number];

export interface ArrivalRow {
  seq: number;
  at: number;
  method: string;
  route: string;
  ip: string;
  status: number;
}

export interface MarkRow {
  seq: number;
  at: number;
  object_type: ObjectKind | null;
  object_id: string;
  sync_type: string;
  result: MarkResult;
  sync_id: string | null;
  idempotency_key: string | null;
  sync_request_id: string | null;
}

export interface MarkInput {
  at: number;
  kind: ObjectKind | null;
  index: number;
  objectId: string;
  syncType: string;
  result: MarkResult;
  syncId: string | null;
  idempotencyKey: string | null;
  syncRequestId: string | null;
}

export class Effects {
  arrivalCount = 0;
  markCount = 0;
  private readonly a = {
    at: new Column(Float64Array),
    method: new Column(Uint8Array),
    route: new Column(Uint16Array),
    ip: new Column(Uint16Array),
    status: new Column(Uint16Array),
  };
  private readonly m = {
    at: new Column(Float64Array),
    kind: new Column(Uint8Array),
    index: new Column(Int32Array),
    syncType: new Column(Uint8Array),
    result: new Column(Uint8Array),
    context: new Column(Int32Array),
  };
  private readonly strings = new Interner();
  /** Ids that are not generated objects (REJECTED unknown ids), by mark seq. */
  private readonly foreignIds = new Map<number, string>();
  /** One entry per sync call: sync_id, idempotency key, sync_request_id. */
  private readonly contexts: Array<[string | null, string | null, string | null]> = [];

  constructor(private readonly idOf: (kind: ObjectKind, index: number) => string) {}

  arrival(at: number, method: string, route: string, ip: string): number {
    const seq = this.arrivalCount++;
    this.a.at.set(seq, at);
    const methodCode = METHODS.indexOf(method);
    this.a.method.set(seq, methodCode < 0 ? METHODS.length - 1 : methodCode);
    this.a.route.set(seq, this.strings.code(route));
    this.a.ip.set(seq, this.strings.code(ip));
    this.a.status.set(seq, 0);
    return seq;
  }

  /** The answer's status; 0 stays for a dropped connection (no answer). */
  arrivalStatus(seq: number, status: number): void {
    this.a.status.set(seq, status);
  }

  syncContext(syncId: string | null, idempotencyKey: string | null, syncRequestId: string | null): number {
    this.contexts.push([syncId, idempotencyKey, syncRequestId]);
    return this.contexts.length - 1;
  }

  mark(input: MarkInput, context: number): void {
    const seq = this.markCount++;
    this.m.at.set(seq, input.at);
    this.m.kind.set(seq, input.kind ? OBJECT_KINDS.indexOf(input.kind) : 255);
    this.m.index.set(seq, input.kind ? input.index : -1);
    this.m.syncType.set(seq, this.strings.code(input.syncType));
    this.m.result.set(seq, MARK_RESULTS.indexOf(input.result));
    this.m.context.set(seq, context);
    if (!input.kind) this.foreignIds.set(seq, input.objectId);
  }

  arrivalRow(seq: number): ArrivalRow {
    return {
      seq,
      at: this.a.at.get(seq),
      method: METHODS[this.a.method.get(seq)] ?? 'OTHER',
      route: this.strings.value(this.a.route.get(seq)),
      ip: this.strings.value(this.a.ip.get(seq)),
      status: this.a.status.get(seq),
    };
  }

  markRow(seq: number): MarkRow {
    const kindCode = this.m.kind.get(seq);
    const kind = kindCode === 255 ? null : (OBJECT_KINDS[kindCode] ?? null);
    const context = this.contexts[this.m.context.get(seq)] ?? [null, null, null];
    return {
      seq,
      at: this.m.at.get(seq),
      object_type: kind,
      object_id: kind ? this.idOf(kind, this.m.index.get(seq)) : (this.foreignIds.get(seq) ?? ''),
      sync_type: this.strings.value(this.m.syncType.get(seq)),
      result: MARK_RESULTS[this.m.result.get(seq)] ?? 'REJECTED',
      sync_id: context[0],
      idempotency_key: context[1],
      sync_request_id: context[2],
    };
  }

  /**
   * Most arrivals admitted (status not 429) from one IP inside any window of `windowMs`,
   * a two-pointer pass over the log: proves "never more than 200 in any 10 s" (F3).
   */
  maxInWindow(windowMs: number): { max: number; ip: string | null; at: number | null } {
    const byIp = new Map<number, number[]>();
    for (let s = 0; s < this.arrivalCount; s++) {
      if (this.a.status.get(s) === 429) continue;
      const ip = this.a.ip.get(s);
      const list = byIp.get(ip);
      if (list) list.push(this.a.at.get(s));
      else byIp.set(ip, [this.a.at.get(s)]);
    }
    let best = { max: 0, ip: null as string | null, at: null as number | null };
    for (const [ip, times] of byIp) {
      times.sort((x, y) => x - y);
      let lo = 0;
      for (let hi = 0; hi < times.length; hi++) {
        while (times[hi]! - times[lo]! >= windowMs) lo++;
        if (hi - lo + 1 > best.max) best = { max: hi - lo + 1, ip: this.strings.value(ip), at: times[lo]! };
      }
    }
    return best;
  }

  /** (object, sync type) pairs marked SYNCED more than once: should always be empty. */
  syncedMoreThanOnce(): Array<{ object_type: string; object_id: string; sync_type: string; count: number }> {
    const counts = new Map<string, number>();
    const synced = MARK_RESULTS.indexOf('SYNCED');
    for (let s = 0; s < this.markCount; s++) {
      if (this.m.result.get(s) !== synced || this.m.kind.get(s) === 255) continue;
      const key = `${this.m.kind.get(s)}:${this.m.index.get(s)}:${this.m.syncType.get(s)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const out: Array<{ object_type: string; object_id: string; sync_type: string; count: number }> = [];
    for (const [key, count] of counts) {
      if (count < 2) continue;
      const [k, i, t] = key.split(':').map(Number) as [number, number, number];
      const kind = OBJECT_KINDS[k]!;
      out.push({ object_type: kind, object_id: this.idOf(kind, i), sync_type: this.strings.value(t), count });
    }
    return out;
  }

  /** Marks of one object (GET /__stub/objects/{type}/{id}): a scan, fine for a debugging read. */
  marksOf(kind: ObjectKind, index: number): MarkRow[] {
    const code = OBJECT_KINDS.indexOf(kind);
    const out: MarkRow[] = [];
    for (let s = 0; s < this.markCount; s++) {
      if (this.m.kind.get(s) === code && this.m.index.get(s) === index) out.push(this.markRow(s));
    }
    return out;
  }

  reset(): void {
    this.arrivalCount = 0;
    this.markCount = 0;
    this.foreignIds.clear();
    this.contexts.length = 0;
  }
}
