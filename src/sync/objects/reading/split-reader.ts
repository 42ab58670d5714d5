import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../../log.ts';
import type { ReadItem, ReadPage } from '../platform-port.ts';
import { type BacklogEnd, findBacklogEnd, type ProbeAnswer, RECENT_MS } from './backlog-end.ts';
import { ALL_TIME, contains, cutAt, cutEvenly, type DateRange } from './date-range.ts';
import { keepsOrder, orderOf, type PageOrder, quantileCuts } from './page-order.ts';
import { boundAfterCut, type HeldRange, MemoryBoard, type RangeBoard, type RangeRow } from './range-board.ts';

/** What the split reader needs: pages of a date range, and the date the range filters on. */
export interface DatedSource {
  /**
   * Ready objects whose date lies in `range`, page after page (following page.next); a probe's
   * page holds the fewest items a page may hold, any other page the most.
   */
  pages(range: DateRange, options?: { probe?: boolean }): AsyncIterable<ReadPage>;
  /** The date `from_date` / `to_date` filter on, in ms; null when the item has none. */
  dateOf(item: ReadItem): number | null;
}

export interface SplitReadOptions {
  /** Most cursors this reader runs at once. */
  cursors: number;
  /** The run's shared plan (default: one of this process alone). */
  board?: RangeBoard;
  /** This reader's name on the board. */
  reader?: string;
  /**
   * 'start': read the first page and plan the run (and, at the end, wait for the other readers);
   * 'join': take part in a run another reader started, until every range is read.
   */
  role?: 'start' | 'join';
  /** A range is cut only when it seems to have at least this many objects left. */
  minSplitItems?: number;
  /** How often a reader with nothing left looks again while others still read. */
  pollMs?: number;
  now?: () => number;
  log?: Logger;
  /**
   * Once aborted, the read ends between pages: no cursor is pulled again, ranges not read to their
   * end go back to the board, and every page already read is still yielded. (Stopping the
   * consumer instead would drop pages a read-ahead had already taken, some of them the last of a
   * range marked done.)
   */
  stop?: AbortSignal;
  /**
   * Told once, when this reader's open cursors seem to have about 2,000 objects left between them
   * (see watchForLastPages): the pages still to come are the last few.
   */
  onLastPages?: () => void;
  /** Told once the read is over: how it went. */
  onDone?: (stats: SplitReadStats) => void;
}

export interface SplitReadStats {
  order: PageOrder | null;
  /** Cursors this reader opened. */
  cursors: number;
  /** Cuts this reader made. */
  splits: number;
  /** Ranges this reader took over from others at a page boundary (a joiner's start). */
  takenOver: number;
  /** Ranges this reader handed over to a reader that asked. */
  handedOver: number;
  /** Cursors whose range held nothing (one request each). */
  emptyRanges: number;
  /** True when the platform broke a range or the order, and everything was read once more. */
  reread: boolean;
  /** Requests sent to find where an oldest-first backlog ends (see backlog-end.ts). */
  probes: number;
}

interface Cursor {
  held: HeldRange;
  iterator: AsyncIterator<ReadPage>;
  next: Promise<Pulled>;
  position: number | null;
  items: number;
  /** This cursor's progress reports to the board, in order (see `report`). */
  reported: Promise<void>;
  /** Another reader asked for this range: it is handed over at the end of the next page. */
  handOver: boolean;
}

interface Pulled {
  cursor: Cursor;
  result: IteratorResult<ReadPage>;
}

const DAY_MS = 86_400_000;
const DEFAULT_MIN_SPLIT_ITEMS = 300;
/** What the open cursors may have left, at most, when the reading counts as down to its last pages. */
const LAST_PAGES_ITEMS = 2000;
/**
 * How long a joining reader waits for the ranges it asked for before it cuts instead: a range's
 * reader hands it over at the end of its next page, a round trip or a few permits away.
 */
const HANDOVER_WAIT_MS = 3000;
/** How often a reader with no cursor looks for the ranges handed over to it. */
const HANDOVER_POLL_MS = 20;
/**
 * For this long after its last cursor ended, a reader with nothing to claim looks again as often
 * as for a handover, then every `pollMs`: near the end of a shared run the other reader's last
 * pages are a round trip or two away, and the starter's final flush waits for them (benchmark
 * 1c: polled every 250 ms, the starter's read ended 250 ms after its last look found the joiner
 * still reading).
 */
const IDLE_SOON_MS = 1000;

/**
 * Reads one kind's ready objects with several cursors that follow the data (docs/platform.md
 * F28: transactions honour `from_date` / `to_date`), so every cursor has work whatever dates the
 * backlog holds, and the rate budget, not one cursor's round trips, sets the pace.
 *
 * - The first page, read with no filter, shows where the data is and in which order the platform
 *   lists it. Ascending order: a probe sent beside it (from a day ago on) shows whether the backlog
 *   runs up to now; if not, a few rounds of probes find where it ends (backlog-end.ts), so an old
 *   backlog is cut where its objects are. The span from that page's last date to the end (now,
 *   or for descending order back a year and more) is cut into equal parts, one per cursor, and
 *   the first cursor keeps the part it is in. Probes that show the date filter ignored leave the
 *   first cursor to read the whole list alone, once. Any other order: the cursor stops and the dates it returned (a sample) give
 *   ranges of equal count; the page's objects are read again and skipped by the sync ledger.
 * - Work stealing: when a cursor ends and no range is open, the range with most left (its density
 *   so far times the span ahead of it), wherever it is read, is cut at the middle of what it has
 *   left; its reader stops at the cut and a new cursor reads from there.
 * - Joining: a reader that joins a run asks for the ranges with most left instead of cutting
 *   them, and their readers hand them over at the end of a page, from the last date read. A cut
 *   ends both parts on a partial page (the page that crosses the cut is read by both cursors);
 *   a handover ends nothing, so a joiner's start costs no request, and the run keeps the
 *   starter's number of cursors (the giver reads with fewer). Measured with two processes on one
 *   kind (benchmark 1c, 60,000 objects): a joiner that cut opened about 30 ranges and the run
 *   read 630 pages for 600 pages of objects.
 * - Every page is checked: a date outside its range's filter, or against the order, means the
 *   platform filters or sorts on something else; cutting stops, cut ranges are read to their
 *   filter's end, and the starter reads the whole list once more at the end so nothing is missed
 *   (the sync ledger makes a second reading of an object a no-op).
 */
export async function* readSplit(source: DatedSource, options: SplitReadOptions): AsyncGenerator<ReadPage> {
  const cursors = Math.max(1, options.cursors);
  const role = options.role ?? 'start';
  if (cursors === 1 && role === 'start' && !options.board) {
    yield* source.pages(ALL_TIME);
    return;
  }
  const board: RangeBoard = options.board ?? new MemoryBoard();
  const reader = options.reader ?? 'local';
  const now = options.now ?? Date.now;
  const minSplit = options.minSplitItems ?? DEFAULT_MIN_SPLIT_ITEMS;
  const stats: SplitReadStats = {
    order: null,
    cursors: 0,
    splits: 0,
    takenOver: 0,
    handedOver: 0,
    emptyRanges: 0,
    reread: false,
    probes: 0,
  };
  /** Cursors this reader keeps open: fewer by each range it hands over. */
  let target = cursors;
  /** Ranges asked for and not yet claimed, until `handoverUntil`. */
  let awaitedHandovers = 0;
  let handoverUntil = 0;
  let askedHandover = false;
  const active = new Set<Cursor>();
  const failed: { error?: unknown } = {};

  const pull = (cursor: Cursor): Promise<Pulled> => {
    const next = cursor.iterator.next().then((result) => ({ cursor, result }));
    next.catch(() => undefined); // raced below; a loser's rejection must not go unhandled
    return next;
  };
  const open = (held: HeldRange): Cursor => {
    const iterator = source.pages(held.filter)[Symbol.asyncIterator]();
    const cursor = {
      held,
      iterator,
      position: null,
      items: 0,
      reported: Promise.resolve(),
      handOver: false,
    } as unknown as Cursor;
    cursor.next = pull(cursor);
    active.add(cursor);
    stats.cursors++;
    return cursor;
  };
  /**
   * Tells the board how far a cursor got, without holding up the pages of the others: one
   * round trip a page, awaited in this loop, serialised every cursor behind it (on a loaded
   * machine the first window of the rate limit took 8.8 s to fill; 6 s with the reports beside
   * the loop). Reports of one cursor stay in order; the bound each returns (narrowed by
   * a cut another process made) applies from the next page on, and cuts this reader makes apply
   * at once (`cut`). A failed report fails the read at its next page.
   */
  const report = (cursor: Cursor, position: number | null, items: number): void => {
    cursor.reported = cursor.reported
      .then(() => board.progress(cursor.held.id, position, items))
      .then((progress) => {
        cursor.held.bound = narrowest(cursor.held.bound, progress.bound);
        if (progress.handOver) cursor.handOver = true;
      })
      .catch((error: unknown) => {
        if (!('error' in failed)) failed.error = error;
      });
  };
  /** Ends a cursor after its last report; its range is done, or `settle` says what becomes of it. */
  const close = async (
    cursor: Cursor,
    settle: (id: number) => Promise<void> = (id) => board.finish(id),
  ): Promise<void> => {
    active.delete(cursor);
    await cursor.reported;
    await settle(cursor.held.id);
    await cursor.iterator.return?.();
  };
  /** The date order ranges are cut and handed over in, or null when the platform keeps none. */
  const datedOrder = async (): Promise<'ascending' | 'descending' | null> => {
    const order = await board.order();
    return (order === 'ascending' || order === 'descending') && (await board.trusted()) ? order : null;
  };
  const cut = async (): Promise<boolean> => {
    const order = await datedOrder();
    if (!order) return false;
    let chosen: ReturnType<typeof chooseCut> = null;
    const done = await board.split((rows) => {
      chosen = chooseCut(rows, order, now(), minSplit);
      return chosen;
    });
    if (!done || !chosen) return false;
    stats.splits++;
    const cutFrom = chosen as NonNullable<ReturnType<typeof chooseCut>>;
    for (const c of active) {
      if (c.held.id === cutFrom.id) c.held.bound = narrowest(c.held.bound, boundAfterCut(cutFrom));
    }
    return true;
  };
  /** Asks the readers of the ranges with most left to hand `count` of them over (a joiner's start). */
  const askForRanges = async (count: number): Promise<number> => {
    const order = await datedOrder();
    if (!order) return 0;
    return board.askHandover(reader, (rows) => chooseHandovers(rows, order, now(), count, 2 * minSplit));
  };
  /** Hands a range over at the end of the page just read: the reader that asked goes on from there. */
  const handOver = async (cursor: Cursor, order: 'ascending' | 'descending'): Promise<void> => {
    const at = cursor.position!;
    await close(cursor, (id) => board.handOver(id, order === 'ascending' ? { from: at } : { to: at + 1 }));
    target = Math.max(1, target - 1);
    stats.handedOver++;
  };
  const fill = async (): Promise<void> => {
    while (active.size < target) {
      const held = await board.claim(reader);
      if (held) {
        if (awaitedHandovers > 0) {
          awaitedHandovers--;
          stats.takenOver++;
        }
        open(held);
        continue;
      }
      // A joiner first asks for ranges; it cuts only if none comes in time.
      if (awaitedHandovers > 0 && Date.now() < handoverUntil) return;
      awaitedHandovers = 0;
      if (role === 'join' && !askedHandover) {
        askedHandover = true;
        awaitedHandovers = await askForRanges(target - active.size);
        handoverUntil = Date.now() + HANDOVER_WAIT_MS;
        if (awaitedHandovers > 0) return;
      }
      if (!(await cut())) return;
      const cutPart = await board.claim(reader);
      if (!cutPart) return;
      open(cutPart);
    }
  };
  let lastPagesTold = false;
  /**
   * Tells onLastPages once this reader's open cursors seem to have little left: the span each has
   * still to read, at the density its cursors have read so far. A range open at its far end is
   * taken to end now (oldest first) or is not known (newest first: then nothing is told, and the
   * run simply ends as it would have). Ranges of the run no cursor of this reader holds are not
   * counted: at worst, results are posted once more than needed.
   */
  const watchForLastPages = (order: PageOrder | null): void => {
    if (lastPagesTold || !options.onLastPages) return;
    if (order !== 'ascending' && order !== 'descending') return;
    const ascending = order === 'ascending';
    let items = 0;
    let covered = 0;
    let span = 0;
    for (const c of active) {
      const began = ascending ? c.held.filter.from : c.held.filter.to;
      const end = ascending ? (c.held.bound.to ?? now()) : c.held.bound.from;
      const at = c.position ?? (ascending ? c.held.bound.from : c.held.bound.to);
      if (end === null || at === null) return;
      span += Math.max(0, ascending ? end - at : at - end);
      if (c.position !== null && began !== null) {
        items += c.items;
        covered += Math.abs(c.position - began);
      }
    }
    if (covered === 0 || (items / covered) * span > LAST_PAGES_ITEMS) return;
    lastPagesTold = true;
    options.onLastPages();
  };

  /**
   * Where an oldest-first backlog ends; 'now' (plan as before) when a probe fails, the ranges being
   * a matter of speed alone.
   */
  const backlogEnd = async (
    first: number,
    last: number,
    recent: Promise<ProbeAnswer | null>,
  ): Promise<BacklogEnd> => {
    const recentDates = await recent;
    if (recentDates === null) return { kind: 'now' };
    try {
      const found = await findBacklogEnd(firstDates, {
        first,
        last,
        recentFrom: recentFrom,
        recent: recentDates,
        width: cursors - 1,
      });
      stats.probes += found.probes;
      return found.end;
    } catch (error) {
      options.log?.warn({ err: error }, 'probing where the backlog ends failed: cutting up to now');
      return { kind: 'now' };
    }
  };
  /** The first page: learn the order, plan the ranges. */
  const plan = async (cursor: Cursor, page: ReadPage, recent: Promise<ProbeAnswer | null>): Promise<void> => {
    const dates = datesOf(source, page.items);
    cursor.items = page.items.length;
    if (page.more === false || dates.length === 0) return;
    const order = orderOf(dates);
    stats.order = order;
    if (order === 'unsorted') {
      await board.plan(order, cutAt(quantileCuts(dates, cursors)));
      await close(cursor);
      return;
    }
    const first = dates[0]!;
    const last = dates.at(-1)!;
    cursor.position = last;
    let pieces: DateRange[];
    if (order === 'ascending') {
      const end = await backlogEnd(first, last, recent);
      if (end.kind === 'ignored') {
        options.log?.warn('the platform ignores from_date: one cursor reads every ready object');
        return;
      }
      if (end.kind === 'unusable') {
        // The plain way: the first cursor reads on over the whole list, and nothing is cut.
        options.log?.warn(
          'a date probe (from_date) was answered unusably (an empty page that points onward, or items ' +
            'without a readable date): it cannot say where the backlog ends, so one cursor is reading every ready object',
        );
        return;
      }
      pieces =
        end.kind === 'now'
          ? cutEvenly({ from: last, to: null }, last, Math.max(now(), last + cursors), cursors)
          : // The end lies between the last date seen and the first empty probe: cut as if in the middle.
            cutEvenly(
              { from: last, to: end.at },
              last,
              Math.max(last + cursors, Math.floor((end.seen + end.at) / 2)),
              cursors,
            );
      cursor.held.bound = { from: null, to: pieces[0]!.to };
      pieces = pieces.slice(1);
    } else {
      const downTo = last - Math.max(365 * DAY_MS, 4 * (first - last));
      pieces = cutEvenly({ from: null, to: last + 1 }, downTo, last + 1, cursors);
      cursor.held.bound = { from: pieces.at(-1)!.from, to: null };
      pieces = pieces.slice(0, -1).reverse();
    }
    await board.narrow(cursor.held.id, cursor.held.bound);
    await board.progress(cursor.held.id, last, cursor.items);
    await board.plan(order, pieces);
  };

  /**
   * The dates on the first page of `range`: one request, a probe. It needs only whether anything
   * is dated in the range and from when, and its items are not kept: a full page of the live shape
   * is about 300 KB that the platform builds and sends and the reader parses, only to throw away,
   * while the first cursors wait for the plan. A page with no date on it says "nothing dated here"
   * only when it is also the last: an empty page that points onward, or items whose dates cannot
   * be read, say nothing (taken for "nothing", they left a third of a backlog unread, the run complete).
   */
  const firstDates = async (range: DateRange): Promise<ProbeAnswer> => {
    const pages = source.pages(range, { probe: true })[Symbol.asyncIterator]();
    try {
      const first = await pages.next();
      if (first.done) return [];
      const dates = datesOf(source, first.value.items);
      if (dates.length === 0 && (first.value.items.length > 0 || first.value.more === true))
        return 'unusable';
      return dates;
    } finally {
      await pages.return?.();
    }
  };
  const recentFrom = now() - RECENT_MS;
  /** Sent beside the first page (which the other cursors wait for anyway); null if it failed. */
  let recent: Promise<ProbeAnswer | null> = Promise.resolve(null);

  try {
    if (role === 'start') {
      open(await board.start(reader, ALL_TIME));
      stats.probes++;
      recent = firstDates({ from: recentFrom, to: null }).catch(() => null);
    } else await fill();
    let planned = role === 'join';
    /** Since when this reader has had no cursor (null while it reads). */
    let idleSince: number | null = null;
    for (;;) {
      if ('error' in failed) throw failed.error;
      if (options.stop?.aborted) break;
      if (active.size === 0) {
        await fill();
        if (active.size === 0) {
          // Nothing to claim or cut right now, but others still read: a range may become worth
          // cutting once its reader has gone some way, or come back from a reader that stopped.
          // The starter also waits so its final flush comes after every other reader's pages.
          if ((await board.readingElsewhere(reader)) === 0) break;
          idleSince ??= Date.now();
          await sleep(
            awaitedHandovers > 0 || Date.now() - idleSince < IDLE_SOON_MS
              ? HANDOVER_POLL_MS
              : (options.pollMs ?? 250),
          );
          continue;
        }
      }
      idleSince = null;
      const { cursor, result } = await Promise.race([...active].map((c) => c.next));
      if (result.done) {
        if (cursor.items === 0) stats.emptyRanges++;
        await close(cursor);
        await fill();
        continue;
      }
      const page = result.value;
      if (!planned) {
        planned = true;
        yield page;
        await plan(cursor, page, recent);
        if (active.has(cursor)) cursor.next = pull(cursor);
        await fill();
        continue;
      }
      const dates = datesOf(source, page.items);
      cursor.items += page.items.length;
      const position = dates.length > 0 ? dates.at(-1)! : cursor.position;
      const order = await board.order();
      const broken =
        dates.some((at) => !contains(cursor.held.filter, at)) ||
        (order !== null && !keepsOrder(order, cursor.position, dates));
      cursor.position = position;
      report(cursor, position, cursor.items);
      watchForLastPages(order);
      if (broken && (await board.trusted())) {
        await board.distrust();
        options.log?.warn(
          { order },
          'the platform returned objects out of their date range or order: no more cuts',
        );
      }
      // A range whose dates cannot be trusted is read to its filter's end, whatever its bound.
      const trusted = !broken && (await board.trusted());
      const kept = trusted
        ? page.items.filter((item) => {
            const at = source.dateOf(item);
            return at === null || contains(cursor.held.bound, at);
          })
        : page.items;
      if (kept.length > 0 || page.items.length === 0) yield { ...page, items: kept };
      if (kept.length < page.items.length) {
        await close(cursor);
        await fill();
      } else if (
        cursor.handOver &&
        trusted &&
        page.more !== false &&
        cursor.position !== null &&
        (order === 'ascending' || order === 'descending')
      ) {
        await handOver(cursor, order);
        await fill();
      } else {
        cursor.next = pull(cursor);
        // Ranges handed over to this reader are claimed as they come, not only when a cursor ends.
        if (awaitedHandovers > 0) await fill();
      }
    }
  } finally {
    // Cursors still open here were stopped early (the consumer quit): their ranges go back, and
    // ranges asked for and not claimed stay with their readers.
    await Promise.allSettled([
      ...[...active].map(async (c) => {
        await c.iterator.return?.();
        await c.reported;
        await board.release(c.held.id);
      }),
      ...(askedHandover ? [board.withdraw(reader)] : []),
    ]);
  }
  if (role === 'start') await board.end?.();
  if (role === 'start' && !(await board.trusted())) {
    stats.reread = true;
    options.log?.warn('reading every ready object once more, so none is missed');
    yield* source.pages(ALL_TIME);
  }
  options.onDone?.(stats);
}

/** The tighter of two bounds of one range (bounds only ever narrow). */
function narrowest(a: DateRange, b: Partial<DateRange>): DateRange {
  const from =
    b.from === undefined || b.from === null ? a.from : a.from === null ? b.from : Math.max(a.from, b.from);
  const to = b.to === undefined || b.to === null ? a.to : a.to === null ? b.to : Math.min(a.to, b.to);
  return { from, to };
}

function datesOf(source: DatedSource, items: readonly ReadItem[]): number[] {
  return items.map((item) => source.dateOf(item)).filter((d): d is number => d !== null);
}

/** The range being read with most left, and the date that halves what it has left. */
export function chooseCut(
  rows: readonly RangeRow[],
  order: 'ascending' | 'descending',
  now: number,
  minItems: number,
): { id: number; at: number; part: DateRange } | null {
  let best: { id: number; at: number; part: DateRange; left: number } | null = null;
  for (const row of rows) {
    const estimate = estimateLeft(row, order, now);
    if (!estimate || estimate.left < minItems || (best && estimate.left <= best.left)) continue;
    const part: DateRange =
      order === 'ascending'
        ? { from: estimate.at, to: row.bound.to }
        : { from: row.bound.from, to: estimate.at };
    best = { id: row.id, at: estimate.at, part, left: estimate.left };
  }
  return best ? { id: best.id, at: best.at, part: best.part } : null;
}

/**
 * The ranges to ask for: the `count` others read with most left, each with at least `minItems`
 * left (a range near its end is cheaper to finish where it is).
 */
function chooseHandovers(
  rows: readonly RangeRow[],
  order: 'ascending' | 'descending',
  now: number,
  count: number,
  minItems: number,
): number[] {
  return rows
    .map((row) => ({
      id: row.id,
      // A range not read yet is taken to be worth asking for (a planned range: a share of the
      // backlog), after those known to have more.
      left: row.position === null ? minItems : (estimateLeft(row, order, now)?.left ?? 0),
    }))
    .filter((r) => r.left >= minItems)
    .sort((a, b) => b.left - a.left)
    .slice(0, Math.max(0, count))
    .map((r) => r.id);
}

/** How much a range seems to have left, and the date that halves it. */
function estimateLeft(
  row: RangeRow,
  order: 'ascending' | 'descending',
  now: number,
): { left: number; at: number } | null {
  const position = row.position;
  if (position === null || row.items === 0) return null;
  const ascending = order === 'ascending';
  const began = ascending ? row.filter.from : row.filter.to;
  const covered = began === null ? null : Math.abs(position - began);
  let end = ascending ? row.bound.to : row.bound.from;
  if (end === null) {
    // An open end. Oldest first: the objects end now (a cut past now would open an empty range,
    // a request for nothing; whatever is dated later stays in the far part, which keeps the open
    // end). Newest first: assume as much is left as was covered.
    end = ascending ? now : position - Math.max(covered ?? DAY_MS, DAY_MS);
  }
  const span = ascending ? end - position : position - end;
  if (span < 2) return null;
  const density = row.items / Math.max(1, covered ?? span);
  const at = ascending ? position + Math.floor(span / 2) : position - Math.floor(span / 2);
  return { left: density * span, at: ascending ? Math.max(position + 1, at) : Math.min(position, at) };
}
