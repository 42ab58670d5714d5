import type { PlatformVendor } from '../../../../src/platform/schemas/vendors.ts';
import { AUX_CODE, makeId, OBJECT_KINDS, type ObjectKind, parseId } from '../core/ids.ts';
import type { Entity } from '../schemas/entities.ts';
import type { ChartSnapshot } from './catalog.ts';
import { ObjectStore } from './object-store.ts';

/**
 * The generated world: object stores per kind, the segments that say how each index range was
 * generated (seed, fractions, chart to draw codings from), entities and platform vendors.
 */

export interface SeedFractions {
  /** Share of transactions/reimbursements/transfers/cashbacks created SYNC_READY. */
  ready_fraction: number;
  /** Share created already SYNCED. */
  synced_fraction: number;
  /** Share with no GL coding at all (the ERP must fail them). */
  uncoded_fraction: number;
  /** Share coded to a GL id the ERP does not know. */
  unknown_coding_fraction: number;
  /** Share of transactions without an accounting-vendor selection (F17). */
  vendor_creation_fraction: number;
  /** Share of transactions that are refunds (negative amounts, docs/platform.md G3). */
  refund_fraction: number;
  /** Share with 2-3 split line items, each coded separately. */
  split_fraction: number;
  /** Share spent in a currency other than the entity's. */
  foreign_fraction: number;
}

export const DEFAULT_FRACTIONS: SeedFractions = {
  ready_fraction: 0.7,
  synced_fraction: 0.1,
  uncoded_fraction: 0.03,
  unknown_coding_fraction: 0.02,
  vendor_creation_fraction: 0.1,
  refund_fraction: 0.05,
  split_fraction: 0.15,
  foreign_fraction: 0.1,
};

export interface Segment {
  start: number;
  end: number;
  seed: number;
  fractions: SeedFractions;
  chart: ChartSnapshot;
}

/** Generated times: fixed base and per-kind step, so times grow with the index (seekable). */
const BASE_TIME = Date.UTC(2024, 0, 1);
const STEP_MS: Record<ObjectKind, number> = {
  transaction: 30_000,
  reimbursement: 600_000,
  transfer: 3_600_000,
  cashback: 21_600_000,
  bill: 600_000,
};

/** Where a world's generated times lie: per kind, the first object's time and the step after it. */
export interface TimeLayout {
  base: Record<ObjectKind, number>;
  step: Record<ObjectKind, number>;
}

export function defaultTimeLayout(): TimeLayout {
  return {
    base: Object.fromEntries(OBJECT_KINDS.map((k) => [k, BASE_TIME])) as Record<ObjectKind, number>,
    step: { ...STEP_MS },
  };
}

/** Generated time of an object: the layout's base plus its index times the step. */
export function timeOf(kind: ObjectKind, index: number, layout: TimeLayout = defaultTimeLayout()): number {
  return layout.base[kind] + index * layout.step[kind];
}

/** First index whose generated time is >= t. */
function indexAtOrAfter(kind: ObjectKind, t: number, layout: TimeLayout = defaultTimeLayout()): number {
  return Math.max(0, Math.ceil((t - layout.base[kind]) / layout.step[kind]));
}

export type PlatformVendorRecord = PlatformVendor & { accounting_vendor_remote_id: string | null };

export class World {
  prefix = '00000000';
  seed = 0;
  businessId = '';
  readonly stores = Object.fromEntries(OBJECT_KINDS.map((k) => [k, new ObjectStore(k)])) as Record<
    ObjectKind,
    ObjectStore
  >;
  readonly segments = Object.fromEntries(OBJECT_KINDS.map((k) => [k, [] as Segment[]])) as Record<
    ObjectKind,
    Segment[]
  >;
  entities: Entity[] = [];
  vendors: PlatformVendorRecord[] = [];
  /** Set by a fresh seed (its `dates`); times grow with the index whatever the layout. */
  times: TimeLayout = defaultTimeLayout();
  private readonly vendorIndex = new Map<string, number>();

  timeOf(kind: ObjectKind, index: number): number {
    return timeOf(kind, index, this.times);
  }

  indexAtOrAfter(kind: ObjectKind, t: number): number {
    return indexAtOrAfter(kind, t, this.times);
  }

  idOf(kind: ObjectKind, index: number): string {
    return makeId(this.prefix, this.stores[kind].code, index);
  }

  /** Index of a generated object's id, or -1 (unknown id, other world, other kind). */
  indexOf(kind: ObjectKind, id: string): number {
    const parsed = parseId(id);
    const store = this.stores[kind];
    if (!parsed || parsed.prefix !== this.prefix || parsed.code !== store.code) return -1;
    return store.has(parsed.index) ? parsed.index : -1;
  }

  segmentOf(kind: ObjectKind, index: number): Segment {
    const list = this.segments[kind];
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (list[mid]!.start <= index) lo = mid;
      else hi = mid - 1;
    }
    return list[lo]!;
  }

  auxId(kind: keyof typeof AUX_CODE, index: number): string {
    return makeId(this.prefix, AUX_CODE[kind], index);
  }

  setVendors(vendors: PlatformVendorRecord[]): void {
    this.vendors = vendors;
    this.vendorIndex.clear();
    for (const [i, v] of vendors.entries()) this.vendorIndex.set(v.id, i);
  }

  vendor(id: string): PlatformVendorRecord | undefined {
    const at = this.vendorIndex.get(id);
    return at === undefined ? undefined : this.vendors[at];
  }

  entity(id: string): Entity | undefined {
    return this.entities.find((e) => e.id === id);
  }

  clear(): void {
    for (const kind of OBJECT_KINDS) {
      this.stores[kind].clear();
      this.segments[kind] = [];
    }
    this.entities = [];
    this.setVendors([]);
  }
}
