import { describe, expect, it } from 'vitest';
import {
  answerLead,
  type LatencySeen,
  leadBounds,
  nextWatchdogWake,
  readFits,
  watchdogTimes,
} from '../../../../src/sync/sync-button/watchdog-lead.ts';
import { SYNC_WINDOW_MS } from '../../../../src/sync/sync-button/window.ts';

const nothingSeen: LatencySeen = { readPageMs: null, postMs: null, pages: null, rows: null };
/** The slow platform of issue 59: reads of 15 s, posts of 8 s, a 1,500-row press (15 pages). */
const slow: LatencySeen = { readPageMs: 15_000, postMs: 8_000, pages: 15, rows: 1_500 };
const press = { requestedAt: new Date(0), deadline: new Date(SYNC_WINDOW_MS) };
const notRead = { pages: 0, complete: false };

/**
 * Pages the watchdog reads from `from` on, each taking `pageMs` (the read and the watchdog's work
 * on it), under its rule: a page is begun only while it ends before the answer at the slowest
 * page seen (readFits).
 */
function pagesReadBy(
  times: ReturnType<typeof watchdogTimes>,
  seen: LatencySeen,
  from: number,
  pageMs: number,
): number {
  let now = from;
  let pages = 0;
  while (pages < times.pagesLeft && readFits(now, times, seen)) {
    now += pageMs;
    pages++;
  }
  return pages;
}

/** A page at the slowest read seen, 15 s, and the watchdog's own 250 ms of work on it. */
const PAGE_MS = 15_250;

describe('sync-button watchdog times (docs/platform.md G29)', () => {
  it('with nothing measured it answers a tenth of the window before the deadline, after one page read at 1 s (and 250 ms of its own work)', () => {
    const times = watchdogTimes(press, nothingSeen, notRead);
    expect(times).toEqual({ pagesLeft: 1, answerAt: 270_000, readFrom: 268_750 });
  });

  it('the answer leaves room for its posts at the slowest post seen (one per 5,000 rows), G8 retries and a margin', () => {
    // 1 post × 8 s + 7 s of retries + 5 s to settle.
    expect(answerLead(slow)).toBe(20_000);
    // 2 posts × 3 s + 12 s.
    expect(answerLead({ ...slow, postMs: 3_000, rows: 5_600 })).toBe(18_000);
  });

  it('the pages left are what the largest read seen took beyond the pages read, at least one while the list goes on, none once a read ended', () => {
    expect(watchdogTimes(press, slow, { pages: 2, complete: false }).pagesLeft).toBe(13);
    expect(watchdogTimes(press, slow, { pages: 15, complete: false }).pagesLeft).toBe(1);
    expect(watchdogTimes(press, nothingSeen, { pages: 4, complete: false }).pagesLeft).toBe(1);
    expect(watchdogTimes(press, slow, { pages: 15, complete: true })).toEqual({
      pagesLeft: 0,
      answerAt: 280_000,
      readFrom: 280_000,
    });
  });

  it('no cap: 15 s reads of 13 pages left start the reading 82 s after the press, where a cap of 2 minutes left 3 of them unread', () => {
    const times = watchdogTimes(press, slow, { pages: 2, complete: false });
    // 300 s − 20 s (the answer) − 13 × 15.25 s.
    expect(times.readFrom).toBe(81_750);
    expect(pagesReadBy(times, slow, times.readFrom, PAGE_MS)).toBe(13);
    expect(pagesReadBy(times, slow, 120_000, PAGE_MS)).toBe(10);
  });

  it('the bound is exact: at the latency measured every page left is read before the answer; 1 ms slower a page, the last one is not begun and the answer still goes out on time', () => {
    const times = watchdogTimes(press, slow, { pages: 2, complete: false });
    expect(pagesReadBy(times, slow, times.readFrom, PAGE_MS)).toBe(13);
    expect(pagesReadBy(times, slow, times.readFrom, PAGE_MS + 1)).toBe(12);
    // Started 1 ms late, the same: the start is the latest that reads them all.
    expect(pagesReadBy(times, slow, times.readFrom + 1, PAGE_MS)).toBe(12);
    // Whatever was read by then, the answer's post and its retries end before the deadline.
    expect(times.answerAt + slow.postMs! + 7_000).toBeLessThan(SYNC_WINDOW_MS);
  });

  it('a shorter window scales the margins with it, not the latencies measured', () => {
    expect(leadBounds(30_000)).toEqual({ minLeadMs: 3_000, maxLeadMs: 27_000, recheckMs: 3_000 });
    const short = { requestedAt: new Date(0), deadline: new Date(30_000) };
    // 1 post × 0.8 s + 0.7 s of retries + 1 s to settle; 13 pages × (1.5 s + 0.25 s) before
    // it. PostgreSQL's work (the settling, each page's) does not shrink with the window.
    const scaled = { readPageMs: 1_500, postMs: 800, pages: 15, rows: 1_500 };
    expect(watchdogTimes(short, scaled, { pages: 2, complete: false })).toEqual({
      pagesLeft: 13,
      answerAt: 27_500,
      readFrom: 4_750,
    });
  });
});

describe('when the sync-button watchdog starts', () => {
  it('it looks again at least every tenth of the window, and starts a tenth of the window before the reading of what is left is due', () => {
    // 13 pages left: reading is due at 81.75 s, so the watchdog starts at 51.75 s.
    const read = { pages: 2, complete: false };
    expect(nextWatchdogWake(press, slow, { pages: 1, complete: false }, 0)).toBe(30_000);
    expect(nextWatchdogWake(press, slow, read, 30_000)).toBe(51_750);
    expect(nextWatchdogWake(press, slow, read, 51_750)).toBeNull();
  });

  it('a run that reads on pushes the start back; one that stops reading does not, and the platform slowing down brings it forward', () => {
    expect(nextWatchdogWake(press, slow, { pages: 10, complete: false }, 85_000)).toBe(115_000);
    expect(nextWatchdogWake(press, slow, { pages: 2, complete: false }, 115_000)).toBeNull();
    const slower = { ...slow, readPageMs: 20_000 };
    // 13 × 20.25 s: due 17 s after the press.
    expect(nextWatchdogWake(press, slower, { pages: 2, complete: false }, 30_000)).toBeNull();
  });

  it('with every row read it starts a tenth of the window before its answer, and waits for the answer itself', () => {
    const done = { pages: 15, complete: true };
    expect(nextWatchdogWake(press, slow, done, 200_000)).toBe(230_000);
    expect(nextWatchdogWake(press, slow, done, 250_000)).toBeNull();
  });
});
