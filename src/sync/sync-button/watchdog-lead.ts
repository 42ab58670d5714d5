import { SYNC_WINDOW_MS } from './window.ts';

/**
 * When the sync-button watchdog does its two steps (docs/platform.md G29), from the latency the
 * platform has shown and how far the press's reads have got:
 *
 * - it answers every row of the press still unanswered at `answerAt`: one post per 5,000 rows
 *   (F14) at the slowest post seen, G8's retries (1 s, 2 s, 4 s) and a settling margin before the
 *   deadline. Not earlier: each row answered then with a temporary failure is one the run could
 *   still have synced.
 * - it reads what the press's reads have not reached yet from `readFrom`: the pages left, at the
 *   slowest page seen and with its own work on each, end by `answerAt`. It takes the reading up
 *   where the furthest read stopped (requests.ts ReadCursor) and never reads again what was read.
 *
 * Neither is capped: a slow platform moves `readFrom` as early as the pages left need. The pages
 * left are known only once a read has ended; until then they are reckoned from the largest read
 * recently seen, and at least one while the list goes on. The margins scale with the request's
 * window (a stub run with a shorter one keeps the same proportions).
 */

/** What the recent calls of the sync button showed (platform-latency.ts); null: nothing seen. */
export interface LatencySeen {
  /** The slowest page of a read of the requested rows, ms. */
  readPageMs: number | null;
  /** The slowest result post, ms. */
  postMs: number | null;
  /** The most pages one read pass took. */
  pages: number | null;
  /** The most rows one read pass listed. */
  rows: number | null;
}

/** How far the reads of the press's requested rows have got (requests.ts ReadCursor). */
export interface ReadReached {
  pages: number;
  complete: boolean;
}

export interface WatchdogTimes {
  /** Pages reckoned left to read: none once a read listed every requested row. */
  pagesLeft: number;
  /** When reading what is left must begin (ms, the database's clock) to end by `answerAt`. */
  readFrom: number;
  /** When every row still unanswered is answered (ms, the database's clock). */
  answerAt: number;
}

/** docs/platform.md F14: 5,000 results a post. */
const ROWS_PER_POST = 5000;
/** G8's retry backoff, 1 s + 2 s + 4 s, at the platform's window. */
const RETRY_MARGIN_MS = 7_000;
/**
 * Room for the answer's own work in PostgreSQL (claims, outcomes, the batch's freeze) and a
 * timer that fires late on a busy machine, at the platform's window; at least a second in a
 * shorter one (PostgreSQL's time does not shrink with the window).
 */
const SETTLE_MARGIN_MS = 5_000;
const MIN_SETTLE_MARGIN_MS = 1_000;
/** What a page read is taken to cost before any has been measured. */
const UNMEASURED_READ_MS = 1_000;
/**
 * The watchdog's own work on each page it reads (recording and attributing it, moving the read
 * cursor), allowed for beside the read itself. Not scaled: it is PostgreSQL's time, whatever the
 * window.
 */
const PAGE_WORK_MS = 250;

/**
 * The answer's lead when no post has been measured, and how often a waiting watchdog looks again
 * (a tenth of the window: 30 s of the platform's 5 minutes), and its first look after the press
 * (`maxLeadMs` before the deadline): the run has read a page or so by then, and nothing but
 * the latency it measures says when to start.
 */
export function leadBounds(windowMs: number): { minLeadMs: number; maxLeadMs: number; recheckMs: number } {
  const tenth = Math.round(windowMs / 10);
  return { minLeadMs: tenth, maxLeadMs: windowMs - tenth, recheckMs: tenth };
}

/** How long before the deadline the answer is posted: its posts, their retries, a margin. */
export function answerLead(seen: LatencySeen, windowMs: number = SYNC_WINDOW_MS): number {
  if (seen.postMs === null) return leadBounds(windowMs).minLeadMs;
  const posts = Math.ceil(Math.max(1, seen.rows ?? 1) / ROWS_PER_POST);
  const scale = windowMs / SYNC_WINDOW_MS;
  const settle = Math.max(MIN_SETTLE_MARGIN_MS, SETTLE_MARGIN_MS * scale);
  return Math.round(posts * seen.postMs + RETRY_MARGIN_MS * scale + settle);
}

/** The pages reckoned left: none after a complete read, else what the largest read took beyond these, at least one. */
function pagesLeft(seen: LatencySeen, read: ReadReached): number {
  if (read.complete) return 0;
  return Math.max(1, (seen.pages ?? 1) - read.pages);
}

/** When the watchdog reads and answers, for a press with this window (requestedAt to deadline). */
export function watchdogTimes(
  request: { requestedAt: Date; deadline: Date },
  seen: LatencySeen,
  read: ReadReached,
): WatchdogTimes {
  const deadline = request.deadline.getTime();
  const windowMs = Math.max(1, deadline - request.requestedAt.getTime());
  const answerAt = deadline - answerLead(seen, windowMs);
  const left = pagesLeft(seen, read);
  return { pagesLeft: left, readFrom: answerAt - left * (readPageMs(seen) + PAGE_WORK_MS), answerAt };
}

/** The slowest page read seen, or what one is taken to cost before any was measured. */
function readPageMs(seen: LatencySeen): number {
  return seen.readPageMs ?? UNMEASURED_READ_MS;
}

/**
 * Whether a page read started at `now`, and the watchdog's work on it, end before the answer is
 * due, at the slowest page seen. The reading stops at the first that would not: the answer is
 * posted on time, and the rows no read reached are left to the platform's window (the press is
 * cut short, and `status` says so).
 */
export function readFits(now: number, times: Pick<WatchdogTimes, 'answerAt'>, seen: LatencySeen): boolean {
  return now + readPageMs(seen) + PAGE_WORK_MS <= times.answerAt;
}

/**
 * When a watchdog that woke at `now` should next wake: null to start now. It starts a tenth of
 * the window before it must begin reading what is left (`readFrom`, at the latest `answerAt`),
 * and from then on keeps the time itself, so a delayed job that wakes late costs nothing. Until
 * then it looks again at least every tenth of the window, so a platform that slows down, or a
 * run that stops reading, brings it forward (a delayed job cannot be moved back once it waits).
 */
export function nextWatchdogWake(
  request: { requestedAt: Date; deadline: Date },
  seen: LatencySeen,
  read: ReadReached,
  now: number,
): number | null {
  const windowMs = request.deadline.getTime() - request.requestedAt.getTime();
  if (windowMs <= 0) return null;
  const { recheckMs } = leadBounds(windowMs);
  const startAt = watchdogTimes(request, seen, read).readFrom - recheckMs;
  if (startAt <= now) return null;
  return Math.min(startAt, now + recheckMs);
}
