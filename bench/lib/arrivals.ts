import type { StubProcess } from './stub-process.ts';

export interface Arrival {
  seq: number;
  at: number;
  method: string;
  route: string;
  status: number;
}

export interface ArrivalStats {
  requests: number;
  rateLimited: number;
  /** Requests per "METHOD route". */
  byRoute: Record<string, number>;
  firstAt: number | null;
  lastAt: number | null;
  /** Most non-429 arrivals inside any window of `windowMs` (sliding). */
  maxInWindow: number;
}

/** Every platform request the stub logged from sequence number `since` on. */
export async function arrivalsSince(stub: StubProcess, since: number): Promise<Arrival[]> {
  const rows: Arrival[] = [];
  let from = since;
  for (;;) {
    const page = await stub.control<{ arrivals: Arrival[]; next: { arrivals_since: number } }>(
      'GET',
      `/__stub/effects?include=arrivals&arrivals_since=${from}&limit=100000`,
    );
    rows.push(...page.arrivals);
    if (page.next.arrivals_since === from || page.arrivals.length === 0) return rows;
    from = page.next.arrivals_since;
  }
}

/** Counts, 429s, routes and the densest window of a list of arrivals. */
export function arrivalStats(arrivals: readonly Arrival[], windowMs: number): ArrivalStats {
  const byRoute: Record<string, number> = {};
  for (const a of arrivals) {
    const key = `${a.method} ${a.route}`;
    byRoute[key] = (byRoute[key] ?? 0) + 1;
  }
  const admitted = admittedTimes(arrivals);
  let maxInWindow = 0;
  let left = 0;
  for (let right = 0; right < admitted.length; right++) {
    while (admitted[right]! - admitted[left]! >= windowMs) left++;
    maxInWindow = Math.max(maxInWindow, right - left + 1);
  }
  return {
    requests: arrivals.length,
    rateLimited: arrivals.filter((a) => a.status === 429).length,
    byRoute,
    firstAt: arrivals.reduce<number | null>((m, a) => (m === null || a.at < m ? a.at : m), null),
    lastAt: arrivals.reduce<number | null>((m, a) => (m === null || a.at > m ? a.at : m), null),
    maxInWindow,
  };
}

/**
 * Admitted requests in consecutive windows from the first arrival ([200, 200, 200, 23]): shows
 * whether each window of the rule was used up, and how long the run went on after the last.
 */
export function perWindow(arrivals: readonly Arrival[], windowMs: number): number[] {
  const times = admittedTimes(arrivals);
  const counts: number[] = [];
  for (const t of times) {
    const slot = windowOf(t, times, windowMs);
    while (counts.length <= slot) counts.push(0);
    counts[slot]!++;
  }
  return counts;
}

/**
 * The last window of the rule counted from the first arrival (as perWindow counts them): how many
 * admitted requests it held and when its first one arrived. A run at the rate limit ends one such
 * window's work after that arrival: what is left for the last window is what its end waits on.
 */
export function lastWindow(
  arrivals: readonly Arrival[],
  windowMs: number,
): { requests: number; firstAt: number } | null {
  const times = admittedTimes(arrivals);
  if (times.length === 0) return null;
  const last = windowOf(times.at(-1)!, times, windowMs);
  const inLast = times.filter((t) => windowOf(t, times, windowMs) === last);
  return { requests: inLast.length, firstAt: inLast[0]! };
}

/** The arrival times the rule admitted (every answer but 429), in order. */
function admittedTimes(arrivals: readonly Arrival[]): number[] {
  return arrivals
    .filter((a) => a.status !== 429)
    .map((a) => a.at)
    .sort((a, b) => a - b);
}

/** Which window of the rule, counted from the first admitted arrival (`times` in order), `t` falls in. */
function windowOf(t: number, times: readonly number[], windowMs: number): number {
  return Math.floor((t - times[0]!) / windowMs);
}
