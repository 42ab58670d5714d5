import { runWithinShare, WindowShare } from '../../platform/index.ts';
import { kindFailureReason } from './kind-failure.ts';
import { kindSpec, type ObjectKindName } from './kinds.ts';

/**
 * Share of each rate window one kind read with one cursor is taken to need, and the least the
 * kinds read by date (many cursors) keep. Those kinds cannot be split (docs/platform.md F28): one
 * page per round trip, about nine requests a second each against the 19 or so the limiter allows
 * (F3), so they need permits all through the window rather than a burst at its start. The kinds
 * read by date take the rest: 1 - 0.45 per one-cursor kind still reading, at least 0.1, and all
 * of it once the last one is done. Benchmark row 1e (30,000 transactions beside 10,500 objects of
 * the other four kinds): with no cap the one-cursor kinds waited for the next window between
 * pages; with a fixed 0.4 the window was part unused once only reimbursements were left.
 */
const ONE_CURSOR_KIND_SHARE = 0.45;
const DATE_KINDS_LEAST_SHARE = 0.1;

/** The share of the window the kinds read by date may take while `reading` one-cursor kinds read. */
export function dateKindsShare(reading: number): number {
  return Math.min(1, Math.max(DATE_KINDS_LEAST_SHARE, 1 - reading * ONE_CURSOR_KIND_SHARE));
}

/**
 * Runs one sync per kind side by side, so one rate budget serves them all (a sync of every kind
 * waited for each kind in turn before, most of the budget unused while a one-cursor kind read).
 * Results come back in the order of `kinds`, whatever order they finish in; a kind that fails
 * (a page link to nowhere, docs/platform.md F43; kind-failure.ts) fails alone and the others go on.
 *
 * Anything else a kind fails with (the database gone, the platform unreachable) is not that
 * kind's: every kind would meet it. The run then rejects with it at once, as it did when kinds ran
 * one after another, rather than wait on the others; what they wrote is as safe as after a crash
 * (the sync ledger), and they stop on the same fault soon after.
 */
export async function sideBySide<T>(
  kinds: readonly ObjectKindName[],
  run: (kind: ObjectKindName) => Promise<T>,
): Promise<PromiseSettledResult<T>[]> {
  const oneCursor = kinds.filter((k) => !kindSpec(k).splitDate);
  const share = new WindowShare(dateKindsShare(oneCursor.length));
  if (oneCursor.length === 0) share.release();
  let reading = oneCursor.length;
  // Each one-cursor kind done (or failed) hands its part of the window to the kinds read by date;
  // the cap lifts once the last is done: the budget is all theirs.
  const finished = () => {
    reading--;
    if (reading === 0) share.release();
    else share.setShare(dateKindsShare(reading));
  };
  let endNow: (error: unknown) => void = () => {};
  const ended = new Promise<never>((_, reject) => {
    endNow = reject;
  });
  ended.catch(() => undefined);
  const runs = kinds.map((kind) => {
    const byDate = Boolean(kindSpec(kind).splitDate);
    const done = byDate ? runWithinShare(share, () => run(kind)) : run(kind);
    if (!byDate) done.then(finished, finished);
    // Registered before allSettled's own handlers, so the run ends before the results would.
    done.catch((error: unknown) => {
      if (kindFailureReason(error) === null) endNow(error);
    });
    return done;
  });
  return Promise.race([ended, Promise.allSettled(runs)]);
}
