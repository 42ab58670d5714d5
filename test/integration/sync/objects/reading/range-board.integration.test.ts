import { describe, expect, it } from 'vitest';
import { PostgresBoard } from '../../../../../src/sync/objects/reading/postgres-board.ts';
import { MemoryBoard, type RangeBoard } from '../../../../../src/sync/objects/reading/range-board.ts';
import { useTestDatabase } from '../../../../support/db.ts';

/**
 * One conformance suite for the two boards of a run's reading (range-board.ts): MemoryBoard, which
 * the split reader's unit tests drive, and PostgresBoard, which production runs use (one process or
 * several). The state machine exists twice, in TypeScript and in SQL; this suite holds them to the
 * same behaviour, so a unit test of the reader over MemoryBoard says something about production.
 */
const db = useTestDatabase();
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 9, 1);

let runs = 0;
const boards: Array<[string, (starter: string) => Promise<RangeBoard>]> = [
  ['MemoryBoard', async () => new MemoryBoard()],
  ['PostgresBoard', (starter) => PostgresBoard.begin(db.sql, 'c-1', `transactions-${++runs}`, starter)],
];

describe.each(boards)('%s (the RangeBoard contract, range-board.ts)', (_name, open) => {
  /** A run of three ranges read by `starter` (oldest first), each a page or more in. */
  async function runReadBy(starter: string) {
    const board = await open(starter);
    await board.start(starter, { from: null, to: T0 + 10 * DAY });
    await board.plan('ascending', [
      { from: T0 + 10 * DAY, to: T0 + 20 * DAY },
      { from: T0 + 20 * DAY, to: null },
    ]);
    const held = [0, (await board.claim(starter))!.id, (await board.claim(starter))!.id];
    await board.progress(0, T0 + 9 * DAY, 900); // nearly done: 1 day left
    await board.progress(held[1]!, T0 + 11 * DAY, 100); // 9 days left at 100 a day
    await board.progress(held[2]!, T0 + 21 * DAY, 100);
    return { board, held };
  }

  it("the first range is its starter's; nothing is open and the order unknown until it plans", async () => {
    const board = await open('s');
    const first = await board.start('s', { from: null, to: null });
    expect(first).toEqual({ id: 0, filter: { from: null, to: null }, bound: { from: null, to: null } });
    expect(await board.order()).toBeNull();
    expect(await board.claim('s')).toBeNull();
    expect(await board.claim('other')).toBeNull();
    expect(await board.trusted()).toBe(true);
  });

  it('a plan records the order and opens its ranges, each claimed once, in plan order', async () => {
    const board = await open('s');
    await board.start('s', { from: null, to: T0 });
    await board.plan('ascending', [
      { from: T0, to: T0 + DAY },
      { from: T0 + DAY, to: null },
    ]);
    expect(await board.order()).toBe('ascending');
    const a = await board.claim('s');
    const b = await board.claim('other');
    expect(a).toEqual({ id: 1, filter: { from: T0, to: T0 + DAY }, bound: { from: T0, to: T0 + DAY } });
    expect(b).toEqual({ id: 2, filter: { from: T0 + DAY, to: null }, bound: { from: T0 + DAY, to: null } });
    expect(await board.claim('s')).toBeNull();
    // Each reader sees the other's range as read elsewhere, and its own not.
    expect(await board.readingElsewhere('other')).toBe(2);
    expect(await board.readingElsewhere('s')).toBe(1);
  });

  it('progress returns the bound as narrowed; a finished range is no longer read anywhere', async () => {
    const board = await open('s');
    await board.start('s', { from: null, to: null });
    await board.narrow(0, { from: null, to: T0 + 5 * DAY });
    expect(await board.progress(0, T0, 100)).toEqual({
      bound: { from: null, to: T0 + 5 * DAY },
      handOver: false,
    });
    expect(await board.readingElsewhere('other')).toBe(1);
    await board.finish(0);
    expect(await board.readingElsewhere('other')).toBe(0);
  });

  it('a cut narrows the range being read to the side it reads and opens the far part for anyone', async () => {
    const { board, held } = await runReadBy('s');
    let offered: number[] = [];
    const cut = await board.split((rows) => {
      offered = rows.map((r) => r.id).sort();
      const row = rows.find((r) => r.id === held[1])!;
      expect(row).toMatchObject({ state: 'reading', reader: 's', position: T0 + 11 * DAY, items: 100 });
      return { id: row.id, at: T0 + 15 * DAY, part: { from: T0 + 15 * DAY, to: T0 + 20 * DAY } };
    });
    expect(cut).toBe(true);
    expect(offered).toEqual([0, held[1], held[2]].sort());
    // The reader learns its new bound at its next page.
    expect((await board.progress(held[1]!, T0 + 12 * DAY, 200)).bound).toEqual({
      from: T0 + 10 * DAY,
      to: T0 + 15 * DAY,
    });
    const part = await board.claim('other');
    expect(part?.filter).toEqual({ from: T0 + 15 * DAY, to: T0 + 20 * DAY });
    // Nothing worth cutting: the board is unchanged.
    expect(await board.split(() => null)).toBe(false);
    expect(await board.claim('other')).toBeNull();
  });

  it('finished ranges are not offered for cutting', async () => {
    const { board, held } = await runReadBy('s');
    await board.finish(held[2]!);
    let offered: number[] = [];
    await board.split((rows) => {
      offered = rows.map((r) => r.id).sort();
      return null;
    });
    expect(offered).toEqual([0, held[1]].sort());
  });

  it('a released range opens again from its start and is claimed next', async () => {
    const { board, held } = await runReadBy('s');
    await board.release(held[2]!);
    const again = await board.claim('other');
    expect(again).toEqual({
      id: held[2],
      filter: { from: T0 + 20 * DAY, to: null },
      bound: { from: T0 + 20 * DAY, to: null },
    });
    // Its progress starts over with its new reader.
    let row: unknown;
    await board.split((rows) => {
      row = rows.find((r) => r.id === held[2]);
      return null;
    });
    expect(row).toMatchObject({ reader: 'other', position: null, items: 0 });
    // Releasing a finished range changes nothing.
    await board.finish(held[1]!);
    await board.release(held[1]!);
    expect(await board.claim('other')).toBeNull();
  });

  it('distrust is kept: no more cuts once a page broke its range or the order', async () => {
    const board = await open('s');
    await board.start('s', { from: null, to: null });
    await board.distrust();
    expect(await board.trusted()).toBe(false);
  });

  it('asked ranges are flagged to their reader, handed over from the last date read, and claimed by the asker only', async () => {
    const { board, held } = await runReadBy('starter');
    const asked = await board.askHandover('joiner', (rows) =>
      rows.filter((r) => (r.position ?? 0) > T0 + 10 * DAY).map((r) => r.id),
    );
    expect(asked).toBe(2);
    // The flag reaches the range's reader with its next progress report.
    expect((await board.progress(held[1]!, T0 + 12 * DAY, 200)).handOver).toBe(true);
    expect((await board.progress(0, T0 + 9.5 * DAY, 950)).handOver).toBe(false);

    await board.handOver(held[1]!, { from: T0 + 12 * DAY });
    // The starter, with a cursor free, does not take the range it handed over.
    expect(await board.claim('starter')).toBeNull();
    // It waits for it at the end of the run: the range is the joiner's to read.
    expect(await board.readingElsewhere('starter')).toBe(1);
    const taken = await board.claim('joiner');
    expect(taken).toEqual({
      id: held[1],
      filter: { from: T0 + 12 * DAY, to: T0 + 20 * DAY },
      bound: { from: T0 + 12 * DAY, to: T0 + 20 * DAY },
    });
  });

  it('a joiner that stops takes its asks back: the reader keeps the range and is no longer told to hand it over', async () => {
    const { board, held } = await runReadBy('starter-2');
    expect(await board.askHandover('joiner-2', () => [held[2]!])).toBe(1);
    await board.withdraw('joiner-2');
    expect((await board.progress(held[2]!, T0 + 22 * DAY, 200)).handOver).toBe(false);
    expect(await board.readingElsewhere('starter-2')).toBe(0);
  });

  it('a range asked for twice is handed to the first asker only', async () => {
    const { board, held } = await runReadBy('starter-3');
    expect(await board.askHandover('joiner-a', () => [held[1]!])).toBe(1);
    // Already asked for: not offered to the second joiner.
    expect(
      await board.askHandover('joiner-b', (rows) => rows.map((r) => r.id).filter((id) => id === held[1])),
    ).toBe(0);
    await board.handOver(held[1]!, { from: T0 + 11 * DAY });
    expect(await board.claim('joiner-b')).toBeNull();
    expect((await board.claim('joiner-a'))?.id).toBe(held[1]);
  });
});
