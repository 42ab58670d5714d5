import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE_MIN } from '../../../../../src/platform/index.ts';
import type { ReadItem, ReadPage } from '../../../../../src/sync/objects/platform-port.ts';
import { contains, type DateRange } from '../../../../../src/sync/objects/reading/date-range.ts';
import { MemoryBoard } from '../../../../../src/sync/objects/reading/range-board.ts';
import {
  chooseCut,
  readSplit,
  type SplitReadStats,
} from '../../../../../src/sync/objects/reading/split-reader.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 23);
const PROBE_PAGE_SIZE = PAGE_SIZE_MIN;

interface Dated {
  id: string;
  at: number;
}

/**
 * An in-memory list in the platform's manner: pages of 100 (a probe's: PROBE_PAGE_SIZE, the fewest
 * docs/platform.md F4 allows) following a cursor, filtered by date (inclusive bounds, as
 * `from_date` / `to_date`), listed in the given order. `ignoreDates` plays a platform that does
 * not honour the filter (docs/platform.md F28: an unknown parameter is ignored); `emptyProbes`
 * one that answers a probe with an empty page pointing onward to the page it held. `sizes` counts
 * the requests by the page size they asked for.
 */
function listing(
  objects: Dated[],
  options: {
    order?: 'asc' | 'desc' | 'shuffled';
    ignoreDates?: boolean;
    emptyProbes?: boolean;
    pageMs?: number;
  } = {},
) {
  const ordered = [...objects];
  if (options.order === 'desc') ordered.sort((a, b) => b.at - a.at);
  else if (options.order === 'shuffled')
    ordered.sort((a, b) => ((a.at * 7919) % 1009) - ((b.at * 7919) % 1009));
  else ordered.sort((a, b) => a.at - b.at);
  let requests = 0;
  const sizes = new Map<number, number>();
  const pages = async function* (
    range: DateRange,
    asked: { probe?: boolean } = {},
  ): AsyncGenerator<ReadPage> {
    const pageSize = asked.probe ? PROBE_PAGE_SIZE : 100;
    const matching = options.ignoreDates ? ordered : ordered.filter((o) => contains(range, o.at));
    if (asked.probe && options.emptyProbes) {
      requests++;
      sizes.set(pageSize, (sizes.get(pageSize) ?? 0) + 1);
      yield { items: [], more: true };
    }
    for (let i = 0; ; i += pageSize) {
      requests++;
      sizes.set(pageSize, (sizes.get(pageSize) ?? 0) + 1);
      await (options.pageMs ? sleep(options.pageMs) : Promise.resolve());
      const items: ReadItem[] = matching
        .slice(i, i + pageSize)
        .map((o) => ({ ok: true, value: { id: o.id, user_transaction_time: new Date(o.at).toISOString() } }));
      const more = i + pageSize < matching.length;
      yield { items, more };
      if (!more) return;
    }
  };
  const dateOf = (item: ReadItem) =>
    item.ok ? Date.parse((item.value as { user_transaction_time: string }).user_transaction_time) : null;
  return { source: { pages, dateOf }, requests: () => requests, sizes };
}

function spread(count: number, from: number, to: number): Dated[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `t${i}`,
    at: from + Math.floor(((to - from) * i) / count),
  }));
}

async function readAll(source: ReturnType<typeof listing>['source'], cursors: number, board?: MemoryBoard) {
  const seen = new Map<string, number>();
  let stats: SplitReadStats | null = null;
  const options = { cursors, now: () => NOW, onDone: (s: SplitReadStats) => (stats = s) };
  for await (const page of readSplit(source, board ? { ...options, board } : options)) {
    for (const item of page.items) {
      const id = (item as { value: { id: string } }).value.id;
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
  }
  return { seen, stats: stats as SplitReadStats | null };
}

describe('split reader (docs/platform.md F28: transactions split by from_date / to_date)', () => {
  it('a backlog all in the last 30 days is shared by every cursor, each object once', async () => {
    const objects = spread(20_000, NOW - 30 * DAY, NOW);
    const list = listing(objects);
    const { seen, stats } = await readAll(list.source, 6);
    expect(seen.size).toBe(objects.length);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(stats?.order).toBe('ascending');
    expect(stats?.cursors).toBeGreaterThanOrEqual(6);
    // One page per 100 objects, plus at most a partial last page per cursor and the empty ranges.
    expect(list.requests()).toBeLessThanOrEqual(200 + stats!.cursors + 1);
  });

  it('a backlog over three years, older than the year before now, is shared as well', async () => {
    const objects = spread(20_000, NOW - 3 * 365 * DAY, NOW - 400 * DAY);
    const list = listing(objects);
    const { seen, stats } = await readAll(list.source, 4);
    expect(seen.size).toBe(objects.length);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(stats!.cursors).toBeGreaterThanOrEqual(4);
    expect(list.requests()).toBeLessThanOrEqual(200 + stats!.cursors + stats!.probes + 1);
  });

  it('work stealing: a lopsided backlog is split again when a cursor runs dry', async () => {
    // Most objects in one day a year ago, a few spread since: the first cuts leave one cursor
    // with nearly everything until the others steal from it.
    const objects = [
      ...spread(15_000, NOW - 365 * DAY, NOW - 364 * DAY),
      ...spread(300, NOW - 300 * DAY, NOW),
    ].map((o, i) => ({ ...o, id: `t${i}` }));
    const list = listing(objects);
    const { seen, stats } = await readAll(list.source, 4);
    expect(seen.size).toBe(objects.length);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(stats!.splits).toBeGreaterThan(0);
  });

  it('newest-first lists are split from the other end', async () => {
    const objects = spread(10_000, NOW - 60 * DAY, NOW);
    const { seen, stats } = await readAll(listing(objects, { order: 'desc' }).source, 4);
    expect(stats?.order).toBe('descending');
    expect(seen.size).toBe(objects.length);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  });

  it('a list in no date order is cut at the first page’s quantiles, nothing missed', async () => {
    const objects = spread(10_000, NOW - 60 * DAY, NOW);
    const { seen, stats } = await readAll(listing(objects, { order: 'shuffled' }).source, 4);
    expect(stats?.order).toBe('unsorted');
    expect(seen.size).toBe(objects.length);
    // Only the first page's objects are read twice (the ledger skips the second reading).
    expect([...seen.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(100);
  });

  it('F28: a platform that ignores the date filter, seen by the probe beside the first page: everything read once', async () => {
    const objects = spread(5_000, NOW - 60 * DAY, NOW);
    const list = listing(objects, { ignoreDates: true });
    const { seen, stats } = await readAll(list.source, 4);
    expect(seen.size).toBe(objects.length);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(stats?.reread).toBe(false);
    expect(list.requests()).toBe(50 + 1);
  });

  it('F28: when the platform ignores from_date/to_date the probes of an old backlog fall back and everything is read once', async () => {
    const objects = spread(5_000, NOW - 730 * DAY, NOW - 720 * DAY);
    const list = listing(objects, { ignoreDates: true });
    const { seen, stats } = await readAll(list.source, 12);
    expect(seen.size).toBe(objects.length);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(stats?.reread).toBe(false);
    expect(stats?.cursors).toBe(1);
  });

  it('F28: a backlog within 10 days two years ago is cut into ranges that all hold data', async () => {
    const objects = spread(30_000, NOW - 730 * DAY, NOW - 720 * DAY);
    const list = listing(objects);
    const board = new MemoryBoard();
    const planned: DateRange[] = [];
    const plan = board.plan.bind(board);
    board.plan = (order, ranges) => {
      planned.push(...ranges);
      return plan(order, ranges);
    };
    const { seen, stats } = await readAll(list.source, 12, board);
    expect(seen.size).toBe(objects.length);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(planned).toHaveLength(11);
    for (const range of planned) expect(objects.some((o) => contains(range, o.at))).toBe(true);
    // A cut near the end may still open a part past the last object (the end is known to a bracket).
    expect(stats!.emptyRanges).toBeLessThanOrEqual(1);
    // The probe beside the first page, a round of 11 and a round of only as many as narrow the
    // bracket enough (7 here, not 11) find the end: no third round.
    expect(stats!.probes).toBeLessThanOrEqual(1 + 11 + 7);
    expect(list.requests()).toBeLessThanOrEqual(300 + stats!.cursors + stats!.probes + 1);
    // F4: every probe asks for the fewest items a page may hold; only the ranges' reads ask for 100.
    expect(list.sizes.get(PROBE_PAGE_SIZE)).toBe(stats!.probes);
    expect([...list.sizes.keys()].sort()).toEqual([100, PROBE_PAGE_SIZE].sort());
  });

  it('F28: a dense backlog three weeks old, half a year long, is also cut where its objects are', async () => {
    const objects = spread(30_000, NOW - 200 * DAY, NOW - 21 * DAY);
    const list = listing(objects);
    const { seen, stats } = await readAll(list.source, 8);
    expect(seen.size).toBe(objects.length);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(stats!.emptyRanges).toBeLessThanOrEqual(1);
    expect(list.requests()).toBeLessThanOrEqual(300 + stats!.cursors + stats!.probes + 1);
  });

  it('F28: a backlog that ends now still plans up to now, with only the probe sent beside the first page', async () => {
    const objects = spread(20_000, NOW - 3 * 365 * DAY, NOW);
    const list = listing(objects);
    const { seen, stats } = await readAll(list.source, 12);
    expect(seen.size).toBe(objects.length);
    expect(stats!.probes).toBe(1);
    expect(stats!.emptyRanges).toBe(0);
    expect(list.requests()).toBeLessThanOrEqual(200 + stats!.cursors + 2);
    // F4: the probe beside the first page asks for 2 items; the first page itself for 100.
    expect(PROBE_PAGE_SIZE).toBe(2);
    expect(list.sizes.get(PROBE_PAGE_SIZE)).toBe(1);
    expect(list.sizes.get(100)).toBe(list.requests() - 1);
  });

  it('F28, F4: probes answered with an empty page that points onward are not taken for "nothing": every object read once', async () => {
    // An old backlog, so the reader probes where it ends; every probe's first page is empty.
    const objects = spread(5_000, NOW - 730 * DAY, NOW - 720 * DAY);
    const list = listing(objects, { emptyProbes: true });
    const { seen, stats } = await readAll(list.source, 12);
    expect(seen.size).toBe(objects.length);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    // The plain way: the first cursor read the whole list, nothing was cut or read twice.
    expect(stats?.cursors).toBe(1);
    expect(stats?.reread).toBe(false);
    expect(list.sizes.get(100)).toBe(50);
  });

  it('F28: a probe page whose items carry no readable date is not taken for "nothing" either', async () => {
    const objects = spread(3_000, NOW - 730 * DAY, NOW - 720 * DAY);
    const list = listing(objects);
    const pages = list.source.pages;
    // Probes list items that cannot be read (per-item failures): their dates are unknown.
    const source = {
      ...list.source,
      pages: async function* (range: DateRange, asked: { probe?: boolean } = {}) {
        for await (const page of pages(range, asked)) {
          yield asked.probe
            ? {
                ...page,
                items: page.items.map(() => ({ ok: false as const, id: null, error: 'unreadable' })),
              }
            : page;
        }
      },
    };
    const { seen, stats } = await readAll(source, 8);
    expect(seen.size).toBe(objects.length);
    expect(stats?.cursors).toBe(1);
  });

  async function lastPagesSignal(order: 'asc' | 'desc', days: number) {
    const objects = spread(20_000, NOW - days * DAY, NOW);
    let read = 0;
    const toldAt: number[] = [];
    const pages = readSplit(listing(objects, { order }).source, {
      cursors: 6,
      now: () => NOW,
      onLastPages: () => toldAt.push(read),
    });
    for await (const page of pages) read += page.items.length;
    expect(read).toBe(objects.length);
    return { toldAt, total: objects.length };
  }

  it('tells once, near the end, that the reading is down to its last pages', async () => {
    const { toldAt, total } = await lastPagesSignal('asc', 30);
    expect(toldAt).toHaveLength(1);
    // Every range handed out and about 2,000 objects left: in the last tenth or so of the backlog.
    expect(toldAt[0]!).toBeGreaterThan(total * 0.85);
    expect(toldAt[0]!).toBeLessThan(total);
  });

  it('tells nothing when what is left cannot be judged (newest first: the oldest range is open)', async () => {
    const { toldAt } = await lastPagesSignal('desc', 3 * 365);
    expect(toldAt).toEqual([]);
  });

  it('one cursor, or one page of objects, is a plain read', async () => {
    const small = spread(50, NOW - DAY, NOW);
    const list = listing(small);
    const { seen } = await readAll(list.source, 4);
    expect(seen.size).toBe(50);
    // The first page, and the probe sent beside it before the list was known to be this short.
    expect(list.requests()).toBe(2);
    const one = listing(spread(500, NOW - DAY, NOW));
    expect((await readAll(one.source, 1)).seen.size).toBe(500);
    expect(one.requests()).toBe(5);
  });

  it('a joiner takes ranges over at a page boundary instead of cutting them: no page more', async () => {
    const objects = spread(12_000, NOW - 30 * DAY, NOW);
    const list = listing(objects, { pageMs: 2 });
    const board = new MemoryBoard();
    const seen = new Map<string, number>();
    const count = async (pages: AsyncIterable<ReadPage>) => {
      for await (const page of pages)
        for (const item of page.items) {
          const id = (item as { value: { id: string } }).value.id;
          seen.set(id, (seen.get(id) ?? 0) + 1);
        }
    };
    const stats: Record<string, SplitReadStats> = {};
    const read = (reader: string, role: 'start' | 'join', cursors: number) =>
      readSplit(list.source, {
        cursors,
        board,
        reader,
        role,
        pollMs: 5,
        now: () => NOW,
        onDone: (s) => (stats[reader] = s),
      });
    const starting = count(read('starter', 'start', 6));
    while ((await board.order()) === null) await sleep(1);
    await sleep(10); // the starter's cursors are under way
    await Promise.all([starting, count(read('joiner', 'join', 3))]);

    const starter = stats.starter!;
    const joiner = stats.joiner!;
    expect(joiner.takenOver).toBe(3);
    expect(starter.handedOver).toBe(3);
    expect(seen.size).toBe(objects.length);
    // A handed-over range resumes at the last date read: that one object is read twice.
    expect([...seen.values()].filter((n) => n > 1)).toHaveLength(3);
    // One page per 100 objects, plus a partial last page per range that ends: a handed-over
    // range ends once, where it would have ended anyway.
    const ends = starter.cursors + joiner.cursors - joiner.takenOver;
    expect(list.requests()).toBeLessThanOrEqual(120 + ends + 1);
  });

  it('a joiner whose ranges are not handed over in time cuts instead', async () => {
    const objects = spread(6_000, NOW - 30 * DAY, NOW);
    const list = listing(objects, { pageMs: 2 });
    const board = new MemoryBoard();
    // The starter's reader never answers: its ranges stay with it.
    board.askHandover = async () => 0;
    const seen = new Set<string>();
    let joiner: SplitReadStats | null = null;
    const drain = async (pages: AsyncIterable<ReadPage>) => {
      for await (const page of pages)
        for (const item of page.items) seen.add((item as { value: { id: string } }).value.id);
    };
    const starting = drain(
      readSplit(list.source, { cursors: 4, board, reader: 's', pollMs: 5, now: () => NOW }),
    );
    while ((await board.order()) === null) await sleep(1);
    await Promise.all([
      starting,
      drain(
        readSplit(list.source, {
          cursors: 2,
          board,
          reader: 'j',
          role: 'join',
          pollMs: 5,
          now: () => NOW,
          onDone: (s) => (joiner = s),
        }),
      ),
    ]);
    // A cut made by another reader reaches a cursor after its page in flight, which may hold
    // objects past the cut: those are read twice (the sync ledger skips the second reading).
    expect(seen.size).toBe(objects.length);
    expect(joiner!.takenOver).toBe(0);
    expect(joiner!.splits).toBeGreaterThan(0);
  });

  it('a starter with nothing left looks again soon while another reader finishes its last pages', async () => {
    const objects = spread(300, NOW - DAY, NOW);
    const board = new MemoryBoard();
    // Another reader holds a range for 300 ms after the starter first finds nothing to read.
    const looks: number[] = [];
    board.readingElsewhere = async () => {
      looks.push(Date.now());
      return Date.now() - looks[0]! < 300 ? 1 : 0;
    };
    const pages = readSplit(listing(objects).source, {
      cursors: 2,
      board,
      reader: 's',
      pollMs: 5_000,
      now: () => NOW,
    });
    let read = 0;
    for await (const page of pages) read += page.items.length;
    expect(read).toBe(objects.length);
    // Looked at every 20 ms or so, not once and again after pollMs: the read ends soon after the
    // other reader's, and the starter's final flush with it.
    expect(looks.length).toBeGreaterThanOrEqual(3);
    expect(looks.at(-1)! - looks[0]!).toBeLessThan(5_000);
  });

  it('a range open at its newest end (oldest first) is cut before now, never past it', () => {
    const row = (position: number) => ({
      id: 3,
      filter: { from: NOW - 10 * DAY, to: null },
      bound: { from: NOW - 10 * DAY, to: null },
      state: 'reading' as const,
      reader: 'r',
      position,
      items: 10_000,
      wantedBy: null,
    });
    // 10,000 objects over 8 days read, 2 days to now: cut in the middle of those 2 days.
    expect(chooseCut([row(NOW - 2 * DAY)], 'ascending', NOW, 300)).toEqual({
      id: 3,
      at: NOW - DAY,
      part: { from: NOW - DAY, to: null },
    });
    // Read up to now: a cut would open a range holding nothing.
    expect(chooseCut([row(NOW)], 'ascending', NOW, 300)).toBeNull();
  });
});
