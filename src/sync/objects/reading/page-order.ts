/**
 * The order a cursor lists objects in, judged from the dates it returned. Splitting a running
 * cursor is safe only when its order is known: an ascending cursor that passed a date has
 * nothing older left, so the range above any later date can go to another cursor.
 */
export type PageOrder = 'ascending' | 'descending' | 'unsorted';

/** Ascending or descending when every step goes one way (and at least one step moves). */
export function orderOf(dates: readonly number[]): PageOrder {
  let up = false;
  let down = false;
  for (let i = 1; i < dates.length; i++) {
    if (dates[i]! > dates[i - 1]!) up = true;
    else if (dates[i]! < dates[i - 1]!) down = true;
  }
  if (up && !down) return 'ascending';
  if (down && !up) return 'descending';
  return 'unsorted';
}

/** True when `dates` continue `order` from `previous` (the cursor's last date, if any). */
export function keepsOrder(order: PageOrder, previous: number | null, dates: readonly number[]): boolean {
  if (order === 'unsorted') return true;
  let last = previous;
  for (const at of dates) {
    if (last !== null && (order === 'ascending' ? at < last : at > last)) return false;
    last = at;
  }
  return true;
}

/** The times that cut a sample into `pieces` parts of equal count (fewer when dates repeat). */
export function quantileCuts(dates: readonly number[], pieces: number): number[] {
  const sorted = [...dates].sort((a, b) => a - b);
  if (sorted.length === 0 || pieces < 2) return [];
  const cuts: number[] = [];
  for (let i = 1; i < pieces; i++) {
    const at = sorted[Math.floor((sorted.length * i) / pieces)]!;
    if (at > sorted[0]! && !cuts.includes(at)) cuts.push(at);
  }
  return cuts;
}
