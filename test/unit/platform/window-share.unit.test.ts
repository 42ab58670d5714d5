import { describe, expect, it } from 'vitest';
import {
  currentDemandMeter,
  currentWindowShare,
  runMetered,
  runWithinShare,
  WindowShare,
} from '../../../src/platform/window-share.ts';

/** Settles pending microtasks and timers of 0 ms, so a promise that can settle has. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A meter that has measured round trips of `ms` (its kind asked `ms` after each permit). */
function measured(share: WindowShare, ms: number, at = 1_000_000) {
  const meter = share.meter();
  meter.granted(at);
  meter.asking(at + ms);
  meter.granted(at + ms);
  meter.asking(at + 2 * ms);
  return meter;
}

describe('WindowShare: the kinds read by date take what the one-cursor kinds leave (docs/platform.md F3, F28)', () => {
  it('F3: a one-cursor kind not yet measured is taken to need a permit every 110 ms: the share keeps a tenth', () => {
    const share = new WindowShare();
    share.meter();
    // 10,250 ms / 110 ms = 93 permits, with the margin 108: 196 - 108 = 88 left.
    expect(share.allowance(196, 10_250)).toBe(88);
    share.meter();
    share.meter();
    expect(share.allowance(196, 10_250)).toBe(19);
  });

  it('F3: a measured kind reserves one permit per round trip with a margin, waits for permits left out', () => {
    const share = new WindowShare();
    const meter = share.meter();
    meter.granted(0);
    // Asked 250 ms after its permit; then waited 2 s for the next permit, which is not its need.
    meter.asking(250);
    meter.granted(2_250);
    meter.asking(2_500);
    // 10,250 / 250 = 41 permits, 48 with the margin: 148 of 196 left.
    expect(share.allowance(196, 10_250)).toBe(148);
  });

  it('F3: two slow kinds leave most of the window; as each finishes the rest grows, and the cap lifts after the last', async () => {
    const share = new WindowShare();
    const slow = measured(share, 300);
    const slower = measured(share, 400);
    // 34.2 + 25.6 permits, 69 with the margin.
    expect(share.allowance(196, 10_250)).toBe(127);
    slower.done();
    expect(share.allowance(196, 10_250)).toBe(156);
    let passed = 0;
    const takes = Array.from({ length: 200 }, () => share.take(196, 10_250).then(() => passed++));
    await settle();
    expect(passed).toBe(156);
    slow.done();
    await Promise.all(takes);
    expect(passed).toBe(200);
  });

  it('F3: requests past the allowance wait, and go as soon as a meter measures less need', async () => {
    const share = new WindowShare();
    const meter = share.meter();
    let passed = 0;
    const takes = Array.from({ length: 20 }, () => share.take(20, 3_600_000).then(() => passed++));
    await settle();
    // Unmeasured, the kind is taken to need the whole window: the share keeps its least, 2 of 20.
    expect(passed).toBe(2);
    // It turns out to read once every 10 minutes: it needs 6 permits an hour, 7 with the margin.
    meter.granted(0);
    meter.asking(600_000);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(passed).toBe(13);
    share.release();
    await Promise.all(takes);
    expect(passed).toBe(20);
  });

  it('F3: the share and the meter follow the async context they were given to, and only that one', async () => {
    const share = new WindowShare();
    const meter = share.meter();
    expect(currentWindowShare()).toBeUndefined();
    await runWithinShare(share, async () => {
      await settle();
      expect(currentWindowShare()).toBe(share);
      expect(currentDemandMeter()).toBeUndefined();
    });
    await runMetered(meter, async () => {
      await settle();
      expect(currentDemandMeter()).toBe(meter);
      expect(currentWindowShare()).toBeUndefined();
    });
    expect(currentDemandMeter()).toBeUndefined();
  });
});
