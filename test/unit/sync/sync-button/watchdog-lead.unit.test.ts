import { describe, expect, it } from 'vitest';
import {
  leadBounds,
  nextWatchdogWake,
  watchdogLead,
} from '../../../../src/sync/sync-button/watchdog-lead.ts';
import { SYNC_WINDOW_MS } from '../../../../src/sync/sync-button/window.ts';

const nothingSeen = { readPageMs: null, postMs: null, pages: null, rows: null };

describe('sync-button watchdog lead (docs/platform.md G29)', () => {
  it('with nothing measured the watchdog starts 30 s before the deadline', () => {
    expect(watchdogLead(nothingSeen)).toBe(30_000);
  });

  it('covers one read pass at the slowest page seen, a post per 5,000 rows plus the first post, and G8 retries', () => {
    // 6 pages × 10 s + (1 + 2) posts × 3 s + 7 s of retries.
    expect(watchdogLead({ readPageMs: 10_000, postMs: 3_000, pages: 6, rows: 5_600 })).toBe(76_000);
  });

  it('never starts earlier than 2 minutes after the press: 15 s reads of 1,500 rows are capped at 3 minutes', () => {
    expect(watchdogLead({ readPageMs: 15_000, postMs: 8_000, pages: 15, rows: 1_500 })).toBe(180_000);
  });

  it('a shorter window scales the bounds and the retry margin with it', () => {
    expect(leadBounds(30_000)).toEqual({ minLeadMs: 3_000, maxLeadMs: 18_000, recheckMs: 3_000 });
    // Calls not measured yet are taken at 1 s, whatever the window: 1 s + 2 × 1 s + 0.7 s.
    expect(watchdogLead(nothingSeen, 30_000)).toBe(3_700);
    // 4 pages × 1 s + 2 posts × 0.5 s + 0.7 s.
    expect(watchdogLead({ readPageMs: 1_000, postMs: 500, pages: 4, rows: 400 }, 30_000)).toBe(5_700);
  });

  it('a waiting watchdog looks again within a tenth of the window, and starts once the lead is reached', () => {
    const requestedAt = new Date(0);
    const deadline = new Date(SYNC_WINDOW_MS);
    const slow = { readPageMs: 10_000, postMs: 3_000, pages: 6, rows: 100 }; // lead 73 s
    expect(nextWatchdogWake({ requestedAt, deadline }, slow, 120_000)).toBe(150_000);
    expect(nextWatchdogWake({ requestedAt, deadline }, slow, 210_000)).toBe(227_000);
    expect(nextWatchdogWake({ requestedAt, deadline }, slow, 227_000)).toBeNull();
    // The platform slowed down while the watchdog waited: it starts at once.
    const slower = { ...slow, pages: 15 };
    expect(nextWatchdogWake({ requestedAt, deadline }, slower, 150_000)).toBeNull();
  });
});
