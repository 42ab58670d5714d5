import { SYNC_WINDOW_MS } from './window.ts';

/**
 * When the sync-button watchdog starts (docs/platform.md G29): early enough to do its work at the
 * latency the platform has shown, late enough to leave the run its time. Its work is one post of
 * the rows already known to be unanswered, one read pass of the requested rows, and one post per
 * 5,000 rows it finds (F14), with room for retries.
 *
 * The bounds are stated for the platform's 5-minute window and scale with the request's own
 * window (a stub run with a shorter one keeps the same proportions):
 * - at least 30 s (a tenth of the window) before the deadline: room for one post with the
 *   retries of G8 (1 s, 2 s, 4 s) when nothing measured says more is needed;
 * - never earlier than 2 minutes (two fifths of the window) after the press: the watchdog claims
 *   and fails the rows the run has listed but not written yet, so starting it earlier fails rows
 *   a healthy run would have written. A read pass slower than the 3 minutes left is beyond any
 *   watchdog; the run, which answers each page as it reads it, is what answers such a press.
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

/** docs/platform.md F14: 5,000 results a post. */
const ROWS_PER_POST = 5000;
/** G8's retry backoff, 1 s + 2 s + 4 s, at the platform's window. */
const RETRY_MARGIN_MS = 7_000;
/** What a call is taken to cost before any has been measured. */
const UNMEASURED_CALL_MS = 1_000;

/** The earliest and latest lead for a window, and how often a waiting watchdog looks again. */
export function leadBounds(windowMs: number): { minLeadMs: number; maxLeadMs: number; recheckMs: number } {
  return {
    minLeadMs: Math.round(windowMs / 10),
    maxLeadMs: Math.round((windowMs * 3) / 5),
    recheckMs: Math.round(windowMs / 10),
  };
}

/** How long before the deadline the watchdog starts, from the latency seen, within the bounds. */
export function watchdogLead(seen: LatencySeen, windowMs: number = SYNC_WINDOW_MS): number {
  const { minLeadMs, maxLeadMs } = leadBounds(windowMs);
  const pages = Math.max(1, seen.pages ?? 1);
  const posts = 1 + Math.ceil(Math.max(1, seen.rows ?? 1) / ROWS_PER_POST);
  const needed =
    pages * (seen.readPageMs ?? UNMEASURED_CALL_MS) +
    posts * (seen.postMs ?? UNMEASURED_CALL_MS) +
    (RETRY_MARGIN_MS * windowMs) / SYNC_WINDOW_MS;
  return Math.round(Math.min(maxLeadMs, Math.max(minLeadMs, needed)));
}

/**
 * When a watchdog that woke at `now` should next wake: null to start now. It starts once the
 * lead the latency calls for has been reached; until then it looks again at least every tenth of
 * the window, so a platform that slows down while the run reads brings it forward (a delayed
 * job cannot be moved back once it waits, so it never waits long without looking).
 */
export function nextWatchdogWake(
  request: { requestedAt: Date; deadline: Date },
  seen: LatencySeen,
  now: number,
): number | null {
  const windowMs = request.deadline.getTime() - request.requestedAt.getTime();
  if (windowMs <= 0) return null;
  const startAt = request.deadline.getTime() - watchdogLead(seen, windowMs);
  if (startAt <= now) return null;
  return Math.min(startAt, now + leadBounds(windowMs).recheckMs);
}
