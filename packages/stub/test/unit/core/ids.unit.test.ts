import { describe, expect, it } from 'vitest';
import { makeId, normalizeKind, parseId, prefixForSeed } from '../../../src/core/ids.ts';
import { hashString, Rng, seedToInt } from '../../../src/core/prng.ts';

describe('generated ids and seeded randomness', () => {
  it('ids are uuid-shaped, decode to their index, and sort in index order (F4 cursor = index seek)', () => {
    const prefix = prefixForSeed(seedToInt(42));
    const ids = [0, 1, 15, 16, 255, 4096, 999_999].map((i) => makeId(prefix, 1, i));
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(parseId(ids[6]!)).toEqual({ prefix, code: 1, index: 999_999 });
    expect(parseId('not-an-id')).toBeNull();
  });

  it('normalizeKind accepts plural, singular and upper-case names', () => {
    expect(normalizeKind('transactions')).toBe('transaction');
    expect(normalizeKind('BILL')).toBe('bill');
    expect(normalizeKind('widgets')).toBeNull();
  });

  it('Rng is reproducible from its seed and uniform enough for test data', () => {
    const a = new Rng(hashString('x'));
    const b = new Rng(hashString('x'));
    const draws = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(draws);
    const mean = draws.reduce((s, v) => s + v, 0) / draws.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
    expect(new Rng(1).uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
