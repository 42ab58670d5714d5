/**
 * The physical limit the sync is measured against (docs/platform.md F3, F4, F14): the platform
 * admits `max` requests per rolling window per source IP, a page carries 100 objects and a sync
 * post 5,000 results.
 */

const PAGE_ITEMS = 100;
const RESULT_BATCH_ITEMS = 5000;

export interface RateRule {
  max: number;
  windowMs: number;
}

/** Fewest requests that move `objects` objects: one page read per 100, one post per 5,000. */
export function minimumRequests(objects: number): number {
  if (objects <= 0) return 0;
  return Math.ceil(objects / PAGE_ITEMS) + Math.ceil(objects / RESULT_BATCH_ITEMS);
}

/**
 * Fastest time the rule allows for `requests` requests: `max` at once, then `max` more each time
 * the rolling window frees, so the last one is sent after floor((requests - 1) / max) windows and
 * answered one latency later.
 */
export function fastestTimeMs(requests: number, rule: RateRule, latencyMs = 0): number {
  if (requests <= 0) return 0;
  return Math.floor((requests - 1) / rule.max) * rule.windowMs + latencyMs;
}

/** Fastest time over measured time: 1 is the limit itself. */
export function ceilingRatio(requests: number, measuredMs: number, rule: RateRule, latencyMs = 0): number {
  if (measuredMs <= 0) return 0;
  return fastestTimeMs(requests, rule, latencyMs) / measuredMs;
}

/** Steady-state objects per second the rule allows (about 1,960 for 200 per 10 s). */
export function steadyObjectsPerSecond(rule: RateRule): number {
  const requestsPerObject = 1 / PAGE_ITEMS + 1 / RESULT_BATCH_ITEMS;
  return rule.max / (rule.windowMs / 1000) / requestsPerObject;
}

/** Most objects per second the rule allows for a run of `objects` objects. */
export function ceilingObjectsPerSecond(objects: number, rule: RateRule, latencyMs = 0): number {
  const ms = fastestTimeMs(minimumRequests(objects), rule, latencyMs);
  return ms > 0 ? objects / (ms / 1000) : Number.POSITIVE_INFINITY;
}

/**
 * The ceiling a product sync is judged against: the fewest requests for `objects` objects sent at
 * the rule's average rate (20 per second for 200 per 10 s), so 30,000 objects take 15.3 s.
 */
export function rateCeilingMs(objects: number, rule: RateRule): number {
  return (minimumRequests(objects) * rule.windowMs) / rule.max;
}
