import { describe, expect, it } from 'vitest';
import { followCursor, PAGE_LIMITS, type PageLimits, type PagingFault } from '../../src/page-guard.ts';

/**
 * The one paging discipline (src/page-guard.ts), over random cursor graphs: valid chains,
 * self-links, cycles, ignored cursors, long runs of empty pages and lists without end. A valid
 * chain is read in full, once; every other graph ends with the caller's error within a bounded
 * number of pages, and no item is handed on twice.
 */

/** mulberry32: a small seeded generator, so a failing case reproduces from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

interface Page {
  items: string[];
  next: string | null;
}

/** A cursor graph: pages by cursor, from `first`; `tail` answers cursors not in `pages` (endless lists). */
interface Graph {
  first: string;
  pages: Map<string, Page>;
  tail?: (cursor: string) => Page;
  /** The most pages a read may take before it must have ended. */
  bound: number;
  /** Whether the graph is a list that ends, each page once, empty runs below the limit. */
  valid: boolean;
}

class Broken extends Error {
  constructor(readonly fault: PagingFault) {
    super(fault.rule);
  }
}

const LIMITS: PageLimits = { emptyRun: 6, pages: 80 };

/** Reads the graph with the guard; what was handed on, how many pages were read, how it ended. */
async function read(graph: Graph, limits = LIMITS) {
  let reads = 0;
  const items: string[] = [];
  let error: unknown = null;
  try {
    for await (const page of followCursor<string, string[]>({
      first: graph.first,
      async read(cursor) {
        reads++;
        const page = graph.pages.get(cursor) ?? graph.tail?.(cursor);
        if (!page) throw new Error(`no page ${cursor}`);
        return { page: page.items, items: page.items, next: page.next };
      },
      keyOf: (cursor) => cursor,
      broken: (fault) => new Broken(fault),
      limits,
    })) {
      items.push(...page);
      // Bounded by counting: a guard that fails to end the list fails the test here.
      if (reads > graph.bound + 5) throw new Error(`still reading after ${reads} pages`);
    }
  } catch (e) {
    error = e;
  }
  return { reads, items, error };
}

/** A chain of `length` pages, empty runs shorter than the limit; optionally ends somewhere else. */
function chain(next: () => number, length: number, prefix: string): Map<string, Page> {
  const pages = new Map<string, Page>();
  let emptyRun = 0;
  for (let i = 0; i < length; i++) {
    const empty = emptyRun < LIMITS.emptyRun - 1 && next() < 0.3;
    emptyRun = empty ? emptyRun + 1 : 0;
    const size = empty ? 0 : 1 + Math.floor(next() * 4);
    const items = Array.from({ length: size }, (_, k) => `${prefix}${i}.${k}`);
    pages.set(`${prefix}${i}`, { items, next: i + 1 < length ? `${prefix}${i + 1}` : null });
  }
  return pages;
}

type Shape = 'valid' | 'self' | 'cycle' | 'ignored' | 'empty-forever' | 'endless' | 'random';

function graphOf(shape: Shape, seed: number): Graph {
  const next = random(seed);
  const length = 1 + Math.floor(next() * 30);
  const pages = chain(next, length, 'p');
  const last = pages.get(`p${length - 1}`)!;
  const at = Math.floor(next() * length);
  switch (shape) {
    case 'valid':
      return { first: 'p0', pages, bound: length, valid: true };
    case 'self':
      pages.get(`p${at}`)!.next = `p${at}`;
      return { first: 'p0', pages, bound: at + 2, valid: false };
    case 'cycle':
      last.next = `p${at}`;
      return { first: 'p0', pages, bound: length + 1, valid: false };
    case 'ignored': {
      // Every cursor answers the first page again, under a fresh cursor.
      let fresh = 0;
      const first = { items: ['i0', 'i1'], next: 'c0' };
      return {
        first: 'start',
        pages: new Map([['start', first]]),
        tail: () => ({ items: ['i0', 'i1'], next: `c${++fresh}` }),
        bound: 2,
        valid: false,
      };
    }
    case 'empty-forever':
      // The list, then empty pages under fresh cursors without end.
      last.next = 'e0';
      return {
        first: 'p0',
        pages,
        tail: (cursor) => ({ items: [], next: `e${Number(cursor.slice(1)) + 1}` }),
        bound: length + LIMITS.emptyRun,
        valid: false,
      };
    case 'endless':
      // New items on every page, for ever.
      last.next = 'n0';
      return {
        first: 'p0',
        pages,
        tail: (cursor) => ({ items: [`item-${cursor}`], next: `n${Number(cursor.slice(1)) + 1}` }),
        bound: LIMITS.pages,
        valid: false,
      };
    case 'random': {
      // Any page may lead anywhere, or end.
      for (const page of pages.values()) {
        const roll = next();
        page.next = roll < 0.15 ? null : `p${Math.floor(next() * length)}`;
      }
      return { first: 'p0', pages, bound: length + 1, valid: isValid(pages, 'p0') };
    }
  }
}

/** A plain walk: does the list end without a page twice and without a long empty run? */
function isValid(pages: Map<string, Page>, first: string): boolean {
  const seen = new Set<string>();
  let emptyRun = 0;
  for (let cursor: string | null = first; cursor !== null; ) {
    if (seen.has(cursor)) return false;
    seen.add(cursor);
    const page: Page = pages.get(cursor)!;
    emptyRun = page.items.length === 0 ? emptyRun + 1 : 0;
    if (page.next !== null && emptyRun >= LIMITS.emptyRun) return false;
    cursor = page.next;
  }
  return true;
}

/** The pages of a valid graph and their items, in list order. */
function walk(graph: Graph): { pages: number; items: string[] } {
  const items: string[] = [];
  let pages = 0;
  for (let cursor: string | null = graph.first; cursor !== null; pages++) {
    const page: Page = graph.pages.get(cursor)!;
    items.push(...page.items);
    cursor = page.next;
  }
  return { pages, items };
}

const SHAPES: Shape[] = ['valid', 'self', 'cycle', 'ignored', 'empty-forever', 'endless', 'random'];
const CASES = 150;

describe('one paging discipline for every cursor (src/page-guard.ts)', () => {
  for (const shape of SHAPES) {
    it(`F43: random ${shape} cursor graphs: a list that ends is read once in full, any other ends with the error in bounded pages`, async () => {
      let valid = 0;
      for (let seed = 1; seed <= CASES; seed++) {
        const graph = graphOf(shape, seed * 7919 + shape.length);
        const { reads, items, error } = await read(graph);
        const where = `${shape}, seed ${seed}`;
        expect(new Set(items).size, where).toBe(items.length); // nothing handed on twice
        expect(reads, where).toBeLessThanOrEqual(graph.bound);
        if (graph.valid) {
          valid++;
          expect(error, where).toBeNull();
          expect({ pages: reads, items }, where).toEqual(walk(graph));
        } else {
          expect(error, where).toBeInstanceOf(Broken);
        }
      }
      if (shape === 'valid') expect(valid).toBe(CASES);
      if (shape === 'random') expect(valid).toBeGreaterThan(0); // both outcomes drawn
    });
  }

  it('F43: each shape ends under its own rule: a repeated link, a repeated page, an empty run, the cap', async () => {
    const ruleOf = async (shape: Shape) => ((await read(graphOf(shape, 3))).error as Broken).fault.rule;
    expect(await ruleOf('self')).toBe('link-repeated');
    expect(await ruleOf('cycle')).toBe('link-repeated');
    expect(await ruleOf('ignored')).toBe('page-repeated');
    expect(await ruleOf('empty-forever')).toBe('empty-run');
    expect(await ruleOf('endless')).toBe('too-long');
  });

  it('F43: the page in hand is handed on before the link beyond it is judged; a repeated page is not', async () => {
    const self = await read({
      first: 'a',
      pages: new Map([
        ['a', { items: ['1'], next: 'b' }],
        ['b', { items: ['2'], next: 'b' }],
      ]),
      bound: 2,
      valid: false,
    });
    expect(self.items).toEqual(['1', '2']);
    expect(self.reads).toBe(2);
    const ignored = await read(graphOf('ignored', 1));
    expect(ignored.items).toEqual(['i0', 'i1']);
    expect(ignored.reads).toBe(2);
  });

  it('an item cap ends a list whose pages are new but too many items in all', async () => {
    const graph = graphOf('endless', 5);
    const { error, items } = await read(graph, { ...LIMITS, items: 40 });
    expect((error as Broken).fault.rule).toBe('too-long');
    expect(items.length).toBeGreaterThanOrEqual(40);
    expect(items.length).toBeLessThan(45);
  });

  it('the shared limits are generous: 100 empty pages in a row, 100,000 pages', () => {
    expect(PAGE_LIMITS).toEqual({ emptyRun: 100, pages: 100_000 });
  });
});
