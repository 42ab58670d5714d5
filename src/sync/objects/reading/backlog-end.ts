import type { DateRange } from './date-range.ts';

/**
 * What a probe's answer says about a range: the dates of its first page, as listed, or
 * 'unusable' when the page cannot say whether anything is dated there (an empty page that still
 * points onward, or items without a date to read).
 */
export type ProbeAnswer = number[] | 'unusable';

/** The first page of a range, as a probe: one request. */
export type FirstDates = (range: DateRange) => Promise<ProbeAnswer>;

/**
 * Where an oldest-first backlog ends, as the probes found it:
 * - 'now': objects are dated within the last day, so the backlog runs up to now (plan as far as now);
 * - 'before': nothing was dated at or after `at` when probed, and something was at `seen`;
 * - 'ignored': a probe came back with objects dated before its `from_date`: the platform does not
 *   filter by date (docs/platform.md F28: unknown parameters are ignored), so ranges would not hold;
 * - 'unusable': a probe's answer could not say whether anything is dated from its `from_date` on
 *   (an empty page that points onward): taking it for "nothing" would leave objects unread.
 */
export type BacklogEnd =
  | { kind: 'now' }
  | { kind: 'before'; at: number; seen: number }
  | { kind: 'ignored' }
  | { kind: 'unusable' };

const DAY_MS = 86_400_000;
/** The probe sent beside the first page: objects dated this close to now mean the backlog ends now. */
export const RECENT_MS = DAY_MS;
/** A bound on the search (each round is one round trip). */
const MAX_ROUNDS = 5;

export interface EndSearch {
  /** Dates of the run's first page (no filter, oldest first). */
  first: number;
  last: number;
  /** When the recent probe asked from (`now - RECENT_MS`), and the dates it got. */
  recentFrom: number;
  recent: Readonly<ProbeAnswer>;
  /** Probes sent at once in a round: the cursors that would otherwise wait. */
  width: number;
}

/**
 * Finds where an oldest-first backlog ends, so the cuts fall in the data and not in the years
 * after it (an old, dense backlog would leave every range but the first empty). A probe asks
 * from a date on (`from_date` only, docs/platform.md F28): the first page it gets shows whether
 * anything is dated from there on. The first round spaces its probes geometrically from the first
 * page's span up to a day ago (a backlog of any age is bracketed within a small factor in one
 * round trip); later rounds space theirs evenly in the bracket, as many as bring it to about two
 * ranges' worth of the backlog (a third round of probes would cost more than a short last range
 * does). Each round's probes go out side by side, in the slots the other cursors will fill; a
 * backlog 2 years old and 10 days long takes two rounds, 11 probes and 7.
 */
export async function findBacklogEnd(
  firstDates: FirstDates,
  search: EndSearch,
): Promise<{ end: BacklogEnd; probes: number }> {
  const { first, last, recentFrom, recent } = search;
  if (recent === 'unusable') return { end: { kind: 'unusable' }, probes: 0 };
  if (recent.some((at) => at < recentFrom)) return { end: { kind: 'ignored' }, probes: 0 };
  if (recent.length > 0 || recentFrom <= last) return { end: { kind: 'now' }, probes: 0 };
  const width = Math.max(1, search.width);
  let lo = last; // something is dated here
  let hi = recentFrom; // nothing is dated from here on
  let probes = 0;
  const base = Math.max(1, last - first);
  const ratio = (hi - first) / base;
  let points =
    ratio > 1
      ? Array.from({ length: width }, (_, i) => first + Math.floor(base * ratio ** ((i + 1) / (width + 1))))
      : [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    points = [...new Set(points)].filter((p) => p > lo && p < hi);
    if (points.length === 0) break;
    probes += points.length;
    const answers = await Promise.all(
      points.map(async (p) => ({ p, dates: await firstDates({ from: p, to: null }) })),
    );
    for (const { p, dates } of answers) {
      if (dates === 'unusable') return { end: { kind: 'unusable' }, probes };
      if (dates.some((at) => at < p)) return { end: { kind: 'ignored' }, probes };
      if (dates.length > 0) lo = Math.max(lo, ...dates);
      else hi = Math.min(hi, p);
    }
    // Objects that became ready while probing can leave no bracket: read up to now, as before.
    if (lo >= hi) return { end: { kind: 'now' }, probes };
    if (hi - lo <= (2 * (hi - first)) / width) break;
    const count = probesToNarrow(lo, hi, first, width);
    points = Array.from({ length: count }, (_, i) => lo + Math.floor(((hi - lo) * (i + 1)) / (count + 1)));
  }
  return { end: { kind: 'before', at: hi, seen: lo }, probes };
}

/**
 * The fewest evenly spaced probes that leave the bracket [lo, hi] within the stopping width (two
 * ranges' worth) after one round, wherever in it the end lies: the new bracket is a (count + 1)th
 * of this one, and the span the ranges cut reaches at least to lo. Probes past that number only
 * cost requests (an old, dense backlog's second round: 7 instead of 11).
 */
export function probesToNarrow(lo: number, hi: number, first: number, width: number): number {
  const needed = Math.ceil(((hi - lo) * width) / (2 * Math.max(1, lo - first))) - 1;
  return Math.min(width, Math.max(1, needed));
}
