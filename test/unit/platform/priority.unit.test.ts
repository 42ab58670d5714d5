import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { currentLane, runWithPriority } from '../../../src/platform/priority.ts';

describe('rate-limiter lanes (priority.ts)', () => {
  it('calls outside runWithPriority are bulk', () => {
    expect(currentLane()).toBe('bulk');
  });

  it('the priority lane follows the async context: awaits, timers, promise chains started inside', async () => {
    const seen = await runWithPriority(async () => {
      const lanes: string[] = [currentLane()];
      await delay(1);
      lanes.push(currentLane());
      lanes.push(await new Promise<string>((resolve) => setTimeout(() => resolve(currentLane()), 1)));
      lanes.push(await Promise.resolve().then(() => currentLane()));
      return lanes;
    });
    expect(seen).toEqual(['priority', 'priority', 'priority', 'priority']);
    expect(currentLane()).toBe('bulk');
  });

  it('work started before a priority run stays bulk while the run goes on', async () => {
    let release = () => {};
    const bulk = new Promise<void>((resolve) => {
      release = resolve;
    }).then(() => currentLane());
    const priority = runWithPriority(async () => {
      release();
      await delay(1);
      return currentLane();
    });
    expect(await Promise.all([bulk, priority])).toEqual(['bulk', 'priority']);
  });

  it('returns what the wrapped function returns, and passes its errors on', async () => {
    expect(runWithPriority(() => 42)).toBe(42);
    await expect(runWithPriority(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
