import { describe, expect, it } from 'vitest';
import { watchdogDelay } from '../../../../src/queue/index.ts';
import {
  type JobPresence,
  MIN_RUN_ROOM_MS,
  planRecovery,
} from '../../../../src/sync/sync-button/lost-presses.ts';

const LEAD = 30_000;
const plan = (leftMs: number, run: JobPresence, watchdog: JobPresence) =>
  planRecovery({
    leftMs,
    watchdogLeadMs: LEAD,
    run,
    watchdog,
    watchdogDelay: (left) => watchdogDelay(left, 0, LEAD),
  });

describe('what a press whose jobs Redis may have lost gets back', () => {
  it('a job Redis still holds is not lost, finished ones included (kept a day): nothing is enqueued', () => {
    const held: JobPresence[] = ['completed', 'failed', 'delayed', 'active', 'waiting', 'prioritized'];
    for (const run of held) for (const watchdog of held) expect(plan(200_000, run, watchdog)).toBeNull();
  });

  it('docs/platform.md G29: both lost with room for a run: the run, and the watchdog at its lead before the deadline', () => {
    expect(plan(200_000, 'unknown', 'unknown')).toEqual({
      lost: ['run', 'watchdog'],
      run: true,
      watchdogDelayMs: 200_000 - LEAD,
    });
  });

  it('only the watchdog lost: it alone comes back, the run in the queue is left be', () => {
    expect(plan(200_000, 'active', 'unknown')).toEqual({
      lost: ['watchdog'],
      run: false,
      watchdogDelayMs: 200_000 - LEAD,
    });
  });

  it('docs/platform.md G29: too little time for a run: no run, and a lost watchdog answers at once', () => {
    const left = LEAD + MIN_RUN_ROOM_MS - 1;
    expect(plan(left, 'unknown', 'unknown')).toEqual({
      lost: ['run', 'watchdog'],
      run: false,
      watchdogDelayMs: 0,
    });
    // The watchdog still in Redis answers by its own delay, before the deadline.
    expect(plan(left, 'unknown', 'delayed')).toEqual({ lost: ['run'], run: false, watchdogDelayMs: null });
  });
});
