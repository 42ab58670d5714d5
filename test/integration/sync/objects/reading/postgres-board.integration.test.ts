import { describe, expect, it } from 'vitest';
import { PostgresBoard } from '../../../../../src/sync/objects/reading/postgres-board.ts';
import { useTestDatabase } from '../../../../support/db.ts';

const db = useTestDatabase();
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 9, 1);

/** A run of three ranges read by `starter` (oldest first), each a page or more in. */
async function runReadBy(starter: string) {
  const board = await PostgresBoard.begin(db.sql, 'c-1', `transactions-${starter}`, starter);
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

describe('PostgresBoard: a joiner takes ranges over at a page boundary (split-reader.ts)', () => {
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
