import { openDateRanges } from '../../src/sync/objects/platform-adapter.ts';

/**
 * How many of `count` objects, generated at `timeOf(i)`, fall in each of the product's date
 * slices (openDateRanges, cut over the year before `now`): shows whether slices share the work.
 */
export function objectsPerProductSlice(
  count: number,
  timeOf: (index: number) => number,
  slices: number,
  now = Date.now(),
): number[] {
  const ranges = openDateRanges(slices, now).map((r) => ({
    from: r.from_date ? Date.parse(r.from_date) : Number.NEGATIVE_INFINITY,
    to: r.to_date ? Date.parse(r.to_date) : Number.POSITIVE_INFINITY,
  }));
  const counts = ranges.map(() => 0);
  for (let i = 0; i < count; i++) {
    const t = timeOf(i);
    const slot = ranges.findIndex((r) => t >= r.from && t <= r.to);
    if (slot >= 0) counts[slot]!++;
  }
  return counts;
}
