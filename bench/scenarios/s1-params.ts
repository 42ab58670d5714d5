import type { RateLimiterOptions } from '../../src/platform/index.ts';
import type { StubRule } from '../lib/stub-process.ts';
import type { Tuning } from './index.ts';

export interface ThroughputParams {
  objects: number;
  rule: StubRule;
  /** The client's limiter; full size: the product's defaults (F3: 200/10 s, no margin, pad 250 ms). */
  limiter?: Partial<RateLimiterOptions>;
  /** Unset: the product's defaults (SYNC_DEFAULTS in src/sync/objects/run-modes/run-context.ts). */
  slices?: number | undefined;
  readAhead?: number | undefined;
  /** Pages written at once; unset: the pipeline's default. */
  pageConcurrency?: number | undefined;
  scale: string;
  /** The fewest requests when they are not one kind's (row 1e); unset: minimumRequests(objects). */
  fewestRequests?: number;
}

/**
 * Scenario 1 (and the load of scenario 3): 60,000 ready transactions at 200 per 10 s with 100 ms
 * per request. Quick: a 20 per 1 s rule (the same 20 requests per second) and 6,000 objects, so
 * the run spans the same three windows and a tail. The client's limiter keeps a margin and a pad
 * that do not scale with the window, which caps the quick ratio near 0.76: judge the full run.
 */
export function throughputParams(quick: boolean, tuning: Tuning): ThroughputParams {
  const slices = tuning.slices;
  const readAhead = tuning.readAhead;
  const pageConcurrency = tuning.pageConcurrency;
  if (!quick)
    return {
      objects: 60_000,
      rule: { rateMax: 200, rateWindowMs: 10_000, latencyMs: 100 },
      slices,
      readAhead,
      pageConcurrency,
      scale: 'full',
    };
  return {
    objects: 6_000,
    rule: { rateMax: 20, rateWindowMs: 1_000, latencyMs: 100 },
    // Margin and pad cover delays between permit and arrival, which do not shrink with the
    // window: pads of 25 and 100 ms each let a request arrive early (a 429) on the loaded
    // machine, so the product's own 250 ms pad and one permit of margin.
    limiter: { max: 20, windowMs: 1_000, margin: 1, windowPadMs: 250 },
    slices,
    readAhead,
    pageConcurrency,
    scale: 'quick: 6,000 objects at 20 per 1 s (the full run: 60,000 at 200 per 10 s)',
  };
}
