import type { DateRange } from './date-range.ts';
import type { PageOrder } from './page-order.ts';

/** A range as one reader holds it: what its cursor asks for, and where it must stop. */
export interface HeldRange {
  id: number;
  /** The filter sent (fixed for the range's life). */
  filter: DateRange;
  /** Its filter narrowed by the cuts other readers took from it. */
  bound: DateRange;
}

/** One range's state on the board. */
export interface RangeRow extends HeldRange {
  state: 'open' | 'reading' | 'done';
  reader: string | null;
  /** The last date read: the newest (ascending) or oldest (descending) so far. */
  position: number | null;
  items: number;
  /** A reader that asked for this range: its reader hands it over at its next page (askHandover). */
  wantedBy: string | null;
}

/** What a reader learns from reporting a page: its bound now, and whether to hand the range over. */
export interface Progress {
  bound: DateRange;
  /** Another reader asked for this range: stop at the end of the page in flight and hand it over. */
  handOver: boolean;
}

/**
 * The shared plan of one run's reading: the ranges, who reads which, how far each got. Every
 * reader of the run (the process that started it and any that joined) works from the same board,
 * so a reader that runs dry can cut the range with most left, wherever it is being read.
 * MemoryBoard serves one process; PostgresBoard (postgres-board.ts) several.
 */
export interface RangeBoard {
  /** The order the platform lists in, learned from the first page; null before. */
  order(): Promise<PageOrder | null>;
  /** False once a page broke its range or the order: no more cuts. */
  trusted(): Promise<boolean>;
  distrust(): Promise<void>;
  /** The run's first range (the whole list), read by `reader`, which plans the rest. */
  start(reader: string, range: DateRange): Promise<HeldRange>;
  /** Records the order and adds ranges for anyone to claim. */
  plan(order: PageOrder | null, ranges: readonly DateRange[]): Promise<void>;
  /**
   * A range claimed by `reader`, or null when none is open. A range handed over to a reader is
   * claimed by that reader only (or by anyone once it is stale).
   */
  claim(reader: string): Promise<HeldRange | null>;
  /**
   * After a page: how far the range got; returns its bound now (a cut may have moved it) and
   * whether another reader asked for it.
   */
  progress(id: number, position: number | null, items: number): Promise<Progress>;
  /** Narrows a held range's bound (the owner after planning). */
  narrow(id: number, bound: DateRange): Promise<void>;
  finish(id: number): Promise<void>;
  /** Gives a range back unfinished (its reader stopped): the next claim reads it from its start. */
  release(id: number): Promise<void>;
  /**
   * Cuts the range being read with most left (`choose` picks it and the date) and adds the far
   * part as an open range. False when no range is worth cutting.
   */
  split(
    choose: (rows: readonly RangeRow[]) => { id: number; at: number; part: DateRange } | null,
  ): Promise<boolean>;
  /**
   * Asks the readers of the ranges `choose` picks (from those others read) to hand them over to
   * `reader` at their next page; returns how many were asked.
   */
  askHandover(reader: string, choose: (rows: readonly RangeRow[]) => number[]): Promise<number>;
  /**
   * Hands a range over at the end of the page read last: it opens again from `resumeAt` (the last
   * date read, so the new reader starts where this one stopped), for the reader that asked.
   */
  handOver(id: number, resumeAt: { from: number } | { to: number }): Promise<void>;
  /** Takes back what `reader` asked for and has not claimed (it stops). */
  withdraw(reader: string): Promise<void>;
  /** Ranges other readers are still reading, have claimed, or have been handed. */
  readingElsewhere(reader: string): Promise<number>;
  /** The run's reading is over: nobody joins it any more. */
  end?(): Promise<void>;
}

/** The board of a run read by one process. */
export class MemoryBoard implements RangeBoard {
  private rows: RangeRow[] = [];
  private learned: PageOrder | null = null;
  private trust = true;

  async order() {
    return this.learned;
  }
  async trusted() {
    return this.trust;
  }
  async distrust() {
    this.trust = false;
  }
  async plan(order: PageOrder | null, ranges: readonly DateRange[]) {
    this.learned = order ?? this.learned;
    for (const range of ranges) this.add(range, 'open', null);
  }
  async claim(reader: string): Promise<HeldRange | null> {
    const open = this.rows.filter(
      (r) => r.state === 'open' && (r.wantedBy === null || r.wantedBy === reader),
    );
    const row = open.find((r) => r.wantedBy === reader) ?? open[0];
    if (!row) return null;
    Object.assign(row, { state: 'reading', reader, wantedBy: null });
    return { id: row.id, filter: row.filter, bound: row.bound };
  }
  async progress(id: number, position: number | null, items: number): Promise<Progress> {
    const row = this.rows[id]!;
    if (position !== null) row.position = position;
    row.items = items;
    return { bound: row.bound, handOver: row.wantedBy !== null };
  }
  async narrow(id: number, bound: DateRange) {
    this.rows[id]!.bound = bound;
  }
  async finish(id: number) {
    this.rows[id]!.state = 'done';
  }
  async release(id: number) {
    const row = this.rows[id]!;
    if (row.state === 'reading')
      Object.assign(row, { state: 'open', reader: null, position: null, items: 0, wantedBy: null });
  }
  async askHandover(reader: string, choose: Parameters<RangeBoard['askHandover']>[1]): Promise<number> {
    const rows = this.rows.filter((r) => r.state === 'reading' && r.reader !== reader && r.wantedBy === null);
    const ids = choose(rows);
    for (const id of ids) this.rows[id]!.wantedBy = reader;
    return ids.length;
  }
  async handOver(id: number, resumeAt: { from: number } | { to: number }) {
    const row = this.rows[id]!;
    const moved = resumedRange(row, resumeAt);
    Object.assign(row, { ...moved, state: 'open', reader: null, position: null, items: 0 });
  }
  async withdraw(reader: string) {
    for (const row of this.rows) if (row.wantedBy === reader) row.wantedBy = null;
  }
  async split(choose: Parameters<RangeBoard['split']>[0]): Promise<boolean> {
    const pick = choose(this.rows.filter((r) => r.state === 'reading'));
    if (!pick) return false;
    this.rows[pick.id]!.bound = { ...this.rows[pick.id]!.bound, ...boundAfterCut(pick) };
    this.add(pick.part, 'open', null);
    return true;
  }
  async readingElsewhere(reader: string) {
    return this.rows.filter(
      (r) =>
        (r.state === 'reading' && r.reader !== reader) ||
        (r.state === 'open' && r.wantedBy !== null && r.wantedBy !== reader),
    ).length;
  }

  async start(reader: string, range: DateRange): Promise<HeldRange> {
    const row = this.add(range, 'reading', reader);
    return { id: row.id, filter: row.filter, bound: row.bound };
  }

  private add(range: DateRange, state: RangeRow['state'], reader: string | null): RangeRow {
    const row: RangeRow = {
      id: this.rows.length,
      filter: range,
      bound: { ...range },
      state,
      reader,
      position: null,
      items: 0,
      wantedBy: null,
    };
    this.rows.push(row);
    return row;
  }
}

/** The cut range keeps the side it is reading: below the cut (ascending) or above it. */
export function boundAfterCut(cut: { at: number; part: DateRange }): Partial<DateRange> {
  return cut.part.from === cut.at ? { to: cut.at } : { from: cut.at };
}

/**
 * A handed-over range from where its last reader stopped: oldest first, from the last date read
 * (inclusive, so objects sharing that date with the next page are not missed; the sync ledger
 * skips the ones read already); newest first, up to and including it.
 */
export function resumedRange(
  range: HeldRange,
  resumeAt: { from: number } | { to: number },
): Pick<HeldRange, 'filter' | 'bound'> {
  if ('from' in resumeAt) {
    const from = Math.max(resumeAt.from, range.bound.from ?? resumeAt.from);
    return { filter: { ...range.filter, from }, bound: { ...range.bound, from } };
  }
  const to = Math.min(resumeAt.to, range.bound.to ?? resumeAt.to);
  return { filter: { ...range.filter, to }, bound: { ...range.bound, to } };
}
