import { describe, expect, it } from 'vitest';
import {
  ceilingObjectsPerSecond,
  ceilingRatio,
  fastestTimeMs,
  minimumRequests,
  rateCeilingMs,
  steadyObjectsPerSecond,
} from '../../../bench/lib/ceiling.ts';

const F3 = { max: 200, windowMs: 10_000 };

describe('ceiling math (docs/platform.md F3, F4, F14)', () => {
  it('needs one page per 100 objects and one result post per 5,000', () => {
    expect(minimumRequests(0)).toBe(0);
    expect(minimumRequests(1)).toBe(2);
    expect(minimumRequests(100)).toBe(2);
    expect(minimumRequests(101)).toBe(3);
    expect(minimumRequests(60_000)).toBe(612);
    expect(minimumRequests(1_000_000)).toBe(10_200);
  });

  it('sends max requests at once, then max more each time the window frees', () => {
    expect(fastestTimeMs(0, F3)).toBe(0);
    expect(fastestTimeMs(1, F3)).toBe(0);
    expect(fastestTimeMs(200, F3)).toBe(0);
    expect(fastestTimeMs(201, F3)).toBe(10_000);
    expect(fastestTimeMs(400, F3)).toBe(10_000);
    expect(fastestTimeMs(612, F3)).toBe(30_000);
    expect(fastestTimeMs(612, F3, 100)).toBe(30_100);
  });

  it('is the same math for the quick rule of 20 per second', () => {
    expect(fastestTimeMs(63, { max: 20, windowMs: 1000 }, 100)).toBe(3100);
  });

  it('ratio is fastest over measured', () => {
    expect(ceilingRatio(612, 30_100, F3, 100)).toBe(1);
    expect(ceilingRatio(612, 60_200, F3, 100)).toBe(0.5);
    expect(ceilingRatio(612, 0, F3)).toBe(0);
  });

  it('the steady ceiling of 200 per 10 s is about 1,960 objects per second', () => {
    expect(Math.round(steadyObjectsPerSecond(F3))).toBe(1961);
    expect(Math.round(ceilingObjectsPerSecond(60_000, F3, 100))).toBe(1993);
  });
});

describe('rate ceiling of a product sync', () => {
  it("is the fewest requests at the rule's average rate: 30,000 objects in 15.3 s, 60,000 in 30.6 s", () => {
    expect(rateCeilingMs(30_000, F3)).toBe(15_300);
    expect(rateCeilingMs(60_000, F3)).toBe(30_600);
  });
});
