import { describe, expect, it } from 'vitest';
import { findBacklogEnd, probesToNarrow } from '../../../../../src/sync/objects/reading/backlog-end.ts';

const DAY = 86_400_000;

describe('where an old backlog ends (docs/platform.md F28: from_date probes)', () => {
  it('a later round sends only the probes that narrow the bracket to two ranges of the cut', () => {
    // Two years of span, the data ends near 500 and the bracket reaches 1217 (in units of the
    // first page's span): 7 probes leave a bracket of 90, within 2 * 500 / 11.
    expect(probesToNarrow(500, 1217, 0, 11)).toBe(7);
    // A bracket already narrow needs one probe; one far wider than the data keeps the full width.
    expect(probesToNarrow(1000, 1100, 0, 11)).toBe(1);
    expect(probesToNarrow(10, 10_000, 0, 11)).toBe(11);
  });

  it('whatever the bracket, a round with that many probes leaves it within the stopping width', () => {
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed;
    };
    for (let i = 0; i < 2_000; i++) {
      const first = next() % 1_000;
      const lo = first + 1 + (next() % 100_000);
      const hi = lo + 1 + (next() % 1_000_000);
      const width = 1 + (next() % 20);
      const count = probesToNarrow(lo, hi, first, width);
      expect(count).toBeGreaterThanOrEqual(1);
      expect(count).toBeLessThanOrEqual(width);
      if (count < width) expect((hi - lo) / (count + 1)).toBeLessThanOrEqual((2 * (lo - first)) / width);
    }
  });

  it('F28: a probe answered unusably (an empty page that points onward) ends the search as unusable, never as an end', async () => {
    const now = Date.UTC(2026, 10, 23);
    const first = now - 730 * DAY;
    const search = { first, last: first + DAY, recentFrom: now - DAY, width: 11 };
    // The probe beside the first page.
    expect((await findBacklogEnd(async () => [], { ...search, recent: 'unusable' })).end).toEqual({
      kind: 'unusable',
    });
    // A probe of the bracket's round: the others said "nothing here", this one cannot say.
    let asked = 0;
    const found = await findBacklogEnd(async () => (++asked === 3 ? 'unusable' : []), {
      ...search,
      recent: [],
    });
    expect(found.end).toEqual({ kind: 'unusable' });
    expect(found.probes).toBe(11);
  });

  it('finds the end of a backlog ten days long two years ago in two rounds, the second of 7 probes', async () => {
    const now = Date.UTC(2026, 10, 23);
    const first = now - 730 * DAY;
    const end = first + 10 * DAY;
    let requests = 0;
    // One object every 14.4 s (60,000 in 10 days): the dates of the first page from `from` on.
    const firstDates = async (range: { from: number | null }) => {
      requests++;
      const from = range.from!;
      return Array.from({ length: 100 }, (_, i) => from + i * 14_400).filter((at) => at < end);
    };
    const found = await findBacklogEnd(firstDates, {
      first,
      last: first + 99 * 14_400,
      recentFrom: now - DAY,
      recent: [],
      width: 11,
    });
    expect(found.end.kind).toBe('before');
    if (found.end.kind !== 'before') return;
    expect(found.end.seen).toBeLessThan(end);
    expect(found.end.at).toBeGreaterThanOrEqual(end);
    // Within two ranges' worth of the span cut (from the first date to the bracket's top, 11 parts).
    expect(found.end.at - found.end.seen).toBeLessThanOrEqual((2 * (found.end.at - first)) / 11);
    expect(found.probes).toBe(11 + 7);
    expect(requests).toBe(18);
  });
});
