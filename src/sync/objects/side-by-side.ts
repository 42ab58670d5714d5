import { runWithinShare, WindowShare } from '../../platform/window-share.ts';
import { type ObjectKindName, readByDate } from './kinds.ts';

/**
 * Share of each rate window the kinds read by date (many cursors) may take while a kind read with
 * one cursor is still reading. Those kinds cannot be split (docs/platform.md F28): one page per
 * round trip, about nine requests a second each, so they need permits all through the window
 * rather than a burst at its start. Benchmark row 1e (30,000 transactions beside 10,500 objects of
 * the other four kinds): with no cap the one-cursor kinds waited for the next window between pages.
 */
export const DATE_KINDS_SHARE_WHILE_OTHERS_READ = 0.4;

/**
 * Runs one sync per kind side by side, so one rate budget serves them all (a sync of every kind
 * waited for each kind in turn before, most of the budget unused while a one-cursor kind read).
 * Results come back in the order of `kinds`, whatever order they finish in; a kind that fails
 * (a page link to nowhere, docs/platform.md F43) fails alone and the others go on.
 */
export async function sideBySide<T>(
  kinds: readonly ObjectKindName[],
  run: (kind: ObjectKindName) => Promise<T>,
): Promise<PromiseSettledResult<T>[]> {
  const oneCursor = kinds.filter((k) => !readByDate(k));
  const share = new WindowShare(DATE_KINDS_SHARE_WHILE_OTHERS_READ);
  if (oneCursor.length === 0) share.release();
  const runs = kinds.map((kind) => (readByDate(kind) ? runWithinShare(share, () => run(kind)) : run(kind)));
  // The cap lifts as soon as every one-cursor kind is done (or failed): the budget is all theirs.
  void Promise.allSettled(runs.filter((_, i) => !readByDate(kinds[i]!))).then(() => share.release());
  return Promise.allSettled(runs);
}
