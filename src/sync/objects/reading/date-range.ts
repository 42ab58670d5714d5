/**
 * A span of object dates, in ms: `from` inclusive, `to` exclusive, null for an open end. The
 * platform's `from_date` / `to_date` are both inclusive (docs/platform.md G4), so a range asks
 * for to_date = to - 1 ms and two adjacent ranges never share an object.
 */
export interface DateRange {
  from: number | null;
  to: number | null;
}

export const ALL_TIME: DateRange = { from: null, to: null };

export function dateQuery(range: DateRange): { from_date?: string; to_date?: string } {
  return {
    ...(range.from !== null ? { from_date: new Date(range.from).toISOString() } : {}),
    ...(range.to !== null ? { to_date: new Date(range.to - 1).toISOString() } : {}),
  };
}

export function contains(range: DateRange, at: number): boolean {
  return (range.from === null || at >= range.from) && (range.to === null || at < range.to);
}

/**
 * `count` adjacent ranges cutting [from, to) at equal times; the first keeps the range's open
 * lower end and the last its open upper end, so together they cover exactly what it covered.
 */
export function cutEvenly(range: DateRange, from: number, to: number, count: number): DateRange[] {
  const span = to - from;
  const pieces = span > count ? count : 1;
  const cuts = Array.from({ length: pieces - 1 }, (_, i) => from + Math.floor((span * (i + 1)) / pieces));
  return Array.from({ length: pieces }, (_, i) => ({
    from: i === 0 ? range.from : cuts[i - 1]!,
    to: i === pieces - 1 ? range.to : cuts[i]!,
  }));
}

/** Ranges cut at the given ascending times (duplicates dropped), covering all time. */
export function cutAt(times: readonly number[]): DateRange[] {
  const cuts = [...new Set(times)].sort((a, b) => a - b);
  const ranges: DateRange[] = [];
  let from: number | null = null;
  for (const cut of cuts) {
    ranges.push({ from, to: cut });
    from = cut;
  }
  ranges.push({ from, to: null });
  return ranges;
}
