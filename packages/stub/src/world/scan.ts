import type { IndexSet } from '../core/index-set.ts';

/**
 * Ordered, bounded scans for list pages: seek to the cursor in an IndexSet (or a plain index
 * range), test an optional predicate, stop after `limit` hits or `budget` visits. The budget keeps
 * a page's cost bounded however the filters combine: a page can come back short with `next` set,
 * which F4 clients follow like any other page.
 */
export interface ScanPlan {
  /** Members to visit; null = every index. */
  set: IndexSet | null;
  /** Index bounds [from, to). */
  from: number;
  to: number;
  predicate?: (i: number) => boolean;
}

export interface ScanResult {
  indices: number[];
  /** Where the next page starts from when `more` (the index after the last one visited). */
  resumeAfter: number;
  more: boolean;
}

const SCAN_BUDGET = 50_000;

export function scanPage(plan: ScanPlan, limit: number, budget = SCAN_BUDGET): ScanResult {
  const indices: number[] = [];
  let visited = 0;
  let i = nextIndex(plan, plan.from);
  while (i !== -1 && i < plan.to) {
    if (visited++ >= budget) return { indices, resumeAfter: i - 1, more: true };
    if (!plan.predicate || plan.predicate(i)) {
      if (indices.length === limit) return { indices, resumeAfter: indices[indices.length - 1]!, more: true };
      indices.push(i);
    }
    i = nextIndex(plan, i + 1);
  }
  return { indices, resumeAfter: indices[indices.length - 1] ?? plan.from - 1, more: false };
}

function nextIndex(plan: ScanPlan, from: number): number {
  if (plan.set) return plan.set.next(from);
  return from < plan.to ? from : -1;
}
