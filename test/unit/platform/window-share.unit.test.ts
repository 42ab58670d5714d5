import { describe, expect, it } from 'vitest';
import { currentWindowShare, runWithinShare, WindowShare } from '../../../src/platform/window-share.ts';

/** Settles pending microtasks and timers of 0 ms, so a promise that can settle has. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('WindowShare: a share of the rate window (docs/platform.md F3)', () => {
  it('F3: while limiting, requests past the share of a window wait; release lets them all go', async () => {
    const share = new WindowShare(0.5);
    let passed = 0;
    // 10 permits per (long) window: a half share admits 5, the rest wait for the window or release.
    const takes = Array.from({ length: 8 }, () => share.take(10, 3_600_000).then(() => passed++));
    await settle();
    expect(passed).toBe(5);
    share.release();
    await Promise.all(takes);
    expect(passed).toBe(8);
  });

  it('F3: the share follows the async context it was given to, and only that one', async () => {
    const share = new WindowShare(1);
    expect(currentWindowShare()).toBeUndefined();
    await runWithinShare(share, async () => {
      await settle();
      expect(currentWindowShare()).toBe(share);
    });
    expect(currentWindowShare()).toBeUndefined();
  });
});

describe('WindowShare: a share that grows as kinds beside it finish (docs/platform.md F3)', () => {
  it('F3: a larger share lets waiting requests go at once, up to the new share', async () => {
    const share = new WindowShare(0.2);
    let passed = 0;
    const takes = Array.from({ length: 8 }, () => share.take(10, 3_600_000).then(() => passed++));
    await settle();
    expect(passed).toBe(2);
    share.setShare(0.6);
    await settle();
    await settle();
    expect(passed).toBe(6);
    share.release();
    await Promise.all(takes);
    expect(passed).toBe(8);
  });
});
