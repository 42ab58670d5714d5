import { describe, expect, it } from 'vitest';
import { cachedRead } from '../../../src/operations/cached.ts';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cachedRead', () => {
  it('reads once per period, shared by concurrent callers', async () => {
    let reads = 0;
    const read = cachedRead(
      async () => {
        reads++;
        await tick(5);
        return reads;
      },
      60_000,
      1_000,
    );
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
    expect(await read()).toBe(1);
    expect(reads).toBe(1);
  });

  it('a slow read times its callers out and no second read starts while it runs', async () => {
    let reads = 0;
    let finish: (n: number) => void = () => undefined;
    const read = cachedRead(
      () => {
        reads++;
        return new Promise<number>((resolve) => {
          finish = resolve;
        });
      },
      0,
      20,
    );
    await expect(read()).rejects.toThrow(/no answer within 20 ms/);
    await expect(read()).rejects.toThrow(/no answer within/);
    expect(reads).toBe(1);
    finish(7);
    await tick(1);
    // ttl 0: the next call reads again, now that the slow one ended.
    const next = read();
    finish(8);
    expect(await next).toBe(8);
    expect(reads).toBe(2);
  });

  it('a failed read is not kept', async () => {
    let reads = 0;
    const read = cachedRead(
      async () => {
        reads++;
        if (reads === 1) throw new Error('database down');
        return 'ok';
      },
      60_000,
      1_000,
    );
    await expect(read()).rejects.toThrow('database down');
    expect(await read()).toBe('ok');
  });
});
