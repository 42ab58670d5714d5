import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/prng.ts';
import { SeedRequest, seedWorld } from '../../../src/seed.ts';
import { DEFAULT_CHART } from '../../../src/world/catalog.ts';
import { drawMinor, splitMinor } from '../../../src/world/generate-common.ts';
import { generateTransaction } from '../../../src/world/generate-transaction.ts';
import { SelectionResolver } from '../../../src/world/selections.ts';
import { World } from '../../../src/world/world.ts';

describe('world generation', () => {
  it('splitMinor: non-zero parts summing exactly to the total, sign kept', () => {
    const rng = new Rng(5);
    for (let k = 0; k < 1000; k++) {
      const total = rng.int(-100_000, 100_000) || 7;
      const parts = rng.int(1, 3);
      const split = splitMinor(rng, total, parts);
      expect(split.reduce((s, v) => s + v, 0)).toBe(total);
      for (const p of split) expect(Math.sign(p)).toBe(Math.sign(total));
    }
  });

  it('drawMinor scales to the currency minor unit (JPY has no cents, KWD has fils)', () => {
    const a = drawMinor(new Rng(1), 'USD');
    expect(drawMinor(new Rng(1), 'JPY')).toBe(Math.round(a * 1.5));
    expect(drawMinor(new Rng(1), 'KWD')).toBe(Math.round(a * 3.07));
  });

  it('seeding 1,000,000 transactions writes status bytes only: no object is stored, each is generated on read', () => {
    const world = new World();
    const summary = seedWorld(
      world,
      SeedRequest.parse({ seed: 1, transactions: 1_000_000, bills: 0 }),
      DEFAULT_CHART,
    );
    expect(summary.counts.transaction).toBe(1_000_000);
    // What a seed stores per object is its status (and flags, sync time): the status sets
    // partition the world, and nothing about any object's content was kept.
    const store = world.stores.transaction;
    expect(store.byStatus.reduce((sum, set) => sum + set.size, 0)).toBe(1_000_000);
    expect(store.extras.size).toBe(0);
    expect(world.segments.transaction).toHaveLength(1);
    const ready = store.ready.size;
    expect(ready / 1_000_000).toBeGreaterThan(0.69);
    expect(ready / 1_000_000).toBeLessThan(0.71);
    // Content comes from (segment seed, index) when read: another segment seed, other content.
    const ctx = { world, resolver: new SelectionResolver(null), settings: null };
    const before = generateTransaction(ctx, 999_999);
    world.segments.transaction[0]!.seed += 1;
    expect(generateTransaction(ctx, 999_999)).not.toEqual(before);
  });

  it('an object is generated identically on every read (deterministic from seed and index)', () => {
    const world = new World();
    seedWorld(world, SeedRequest.parse({ seed: 'abc', transactions: 100 }), DEFAULT_CHART);
    const ctx = { world, resolver: new SelectionResolver(null), settings: null };
    expect(generateTransaction(ctx, 57)).toEqual(generateTransaction(ctx, 57));
    expect(generateTransaction(ctx, 57).id).toBe(world.idOf('transaction', 57));
  });
});
