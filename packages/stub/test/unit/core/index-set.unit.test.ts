import { describe, expect, it } from 'vitest';
import { IndexSet } from '../../../src/core/index-set.ts';
import { Rng } from '../../../src/core/prng.ts';

/**
 * Counts the words of the set's bitset levels that its methods read: each level goes behind a
 * proxy (the levels are private; reading them is what a seek costs).
 */
function countWordReads(set: IndexSet): { reads: number; levels: number } {
  const inside = set as unknown as { levels: Uint32Array[] };
  const counter = { reads: 0, levels: inside.levels.length };
  inside.levels = inside.levels.map(
    (level) =>
      new Proxy(level, {
        get(target, key) {
          if (typeof key === 'string' && /^\d+$/.test(key)) counter.reads++;
          // No receiver: a typed array's getters (length) refuse a proxy as `this`.
          return Reflect.get(target, key);
        },
      }),
  );
  return counter;
}

describe('IndexSet (ordered seek for cursor pages)', () => {
  it('add, delete, has, size and next agree with a reference set under random operations', () => {
    const set = new IndexSet(16);
    const ref = new Set<number>();
    const rng = new Rng(3);
    for (let step = 0; step < 20_000; step++) {
      const i = rng.int(0, 70_000);
      if (rng.chance(0.6)) {
        expect(set.add(i)).toBe(!ref.has(i));
        ref.add(i);
      } else {
        expect(set.delete(i)).toBe(ref.has(i));
        ref.delete(i);
      }
      expect(set.has(i)).toBe(ref.has(i));
    }
    expect(set.size).toBe(ref.size);
    const sorted = [...ref].sort((a, b) => a - b);
    const walked: number[] = [];
    for (let i = set.next(0); i !== -1; i = set.next(i + 1)) walked.push(i);
    expect(walked).toEqual(sorted);
  });

  it('next seeks across empty regions and returns -1 past the last member', () => {
    const set = new IndexSet();
    set.add(5);
    set.add(1_000_000);
    expect(set.next(0)).toBe(5);
    expect(set.next(6)).toBe(1_000_000);
    expect(set.next(1_000_001)).toBe(-1);
    expect(set.capacity).toBeGreaterThanOrEqual(1_000_001);
    set.delete(1_000_000);
    expect(set.next(6)).toBe(-1);
  });

  it('a seek in a 1,000,000-member sparse set reads a few words per summary level (does not scan)', () => {
    const set = new IndexSet(1_000_000);
    for (let i = 0; i < 1_000_000; i += 997) set.add(i);
    set.add(999_999);
    const words = countWordReads(set);
    expect(words.levels).toBe(4); // 31,250 words, then 977, 31 and 1
    let most = 0;
    let hits = 0;
    for (let k = 0; k < 10_000; k++) {
      words.reads = 0;
      if (set.next((k * 7919) % 1_000_000) !== -1) hits++;
      most = Math.max(most, words.reads);
    }
    expect(hits).toBe(10_000);
    // Up the levels to a non-empty word and back down: at most two reads a level. A scan of the
    // bottom level reads up to 31 words between two members 997 apart.
    expect(most).toBeLessThanOrEqual(2 * words.levels);
  });

  it('a seek across 1,000,000 empty indexes reads a few words per summary level (does not scan)', () => {
    const set = new IndexSet(1_000_000);
    set.add(3);
    set.add(999_999);
    const words = countWordReads(set);
    expect(set.next(4)).toBe(999_999);
    // A scan of the bottom level would read 31,000 words.
    expect(words.reads).toBeLessThanOrEqual(2 * words.levels);
  });
});
