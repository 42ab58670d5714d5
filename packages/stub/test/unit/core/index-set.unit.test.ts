import { describe, expect, it } from 'vitest';
import { IndexSet } from '../../../src/core/index-set.ts';
import { Rng } from '../../../src/core/prng.ts';

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

  it('a seek in a 1,000,000-member sparse set costs microseconds (does not scan)', () => {
    const set = new IndexSet(1_000_000);
    for (let i = 0; i < 1_000_000; i += 997) set.add(i);
    const started = performance.now();
    let hits = 0;
    for (let k = 0; k < 10_000; k++) if (set.next((k * 7919) % 1_000_000) !== -1) hits++;
    expect(hits).toBeGreaterThan(9_000);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
