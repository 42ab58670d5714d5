import { describe, expect, it } from 'vitest';
import { prefetch } from '../../../../src/sync/objects/prefetch.ts';

/** A source that records how many items it had produced when each was handed over. */
function counted(total: number) {
  let produced = 0;
  async function* source() {
    for (let i = 0; i < total; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      produced++;
      yield i;
    }
  }
  return { source: source(), produced: () => produced };
}

describe('prefetch', () => {
  it('reads up to `depth` items ahead of the consumer, in order', async () => {
    const { source, produced } = counted(20);
    const handedOver: Array<[number, number]> = [];
    for await (const item of prefetch(source, 4)) {
      handedOver.push([item, produced()]);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(handedOver.map(([item]) => item)).toEqual([...Array(20).keys()]);
    // Never more than depth + 1 items produced beyond the one handed over.
    expect(handedOver.every(([item, made]) => made - item <= 5)).toBe(true);
  });

  it('fillFirst: the first item waits until `depth` items are in', async () => {
    const { source, produced } = counted(20);
    const firstSeenAfter: number[] = [];
    for await (const _ of prefetch(source, 8, { fillFirst: true })) {
      firstSeenAfter.push(produced());
      break;
    }
    expect(firstSeenAfter[0]).toBeGreaterThanOrEqual(8);
  });

  it('fillFirst: a source shorter than `depth` is handed over whole once it ends', async () => {
    const { source } = counted(3);
    const items: number[] = [];
    for await (const item of prefetch(source, 8, { fillFirst: true })) items.push(item);
    expect(items).toEqual([0, 1, 2]);
  });

  it('without fillFirst the first item is handed over as soon as it is in', async () => {
    const { source, produced } = counted(20);
    for await (const _ of prefetch(source, 8)) {
      expect(produced()).toBeLessThan(8);
      break;
    }
  });
});
