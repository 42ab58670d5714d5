/** Most intervals open at one moment (an end at the same instant as a start does not overlap). */
export function intervalsOverlap(intervals: readonly { start: number; end: number }[]): number {
  const events = intervals.flatMap((i) => [
    { t: i.start, d: 1 },
    { t: i.end, d: -1 },
  ]);
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  let open = 0;
  let most = 0;
  for (const e of events) {
    open += e.d;
    most = Math.max(most, open);
  }
  return most;
}
