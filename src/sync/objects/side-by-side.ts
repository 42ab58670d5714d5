import { runMetered, runWithinShare, WindowShare } from '../../platform/index.ts';
import { kindFailureReason } from './kind-failure.ts';
import { kindSpec, type ObjectKindName } from './kinds.ts';

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
  // Kinds read with one cursor are metered; the kinds read by date take the rest of each window
  // (window-share.ts), and all of it once the last metered kind is done.
  const share = new WindowShare();
  const meters = new Map(kinds.filter((k) => !kindSpec(k).splitDate).map((k) => [k, share.meter()]));
  if (meters.size === 0) share.release();
  let endNow: (error: unknown) => void = () => {};
  const ended = new Promise<never>((_, reject) => {
    endNow = reject;
  });
  ended.catch(() => undefined);
  const runs = kinds.map((kind) => {
    const meter = meters.get(kind);
    const done = meter ? runMetered(meter, () => run(kind)) : runWithinShare(share, () => run(kind));
    // A metered kind done (or failed) reserves nothing more.
    if (meter)
      done.then(
        () => meter.done(),
        () => meter.done(),
      );
    // Registered before allSettled's own handlers, so the run ends before the results would.
    done.catch((error: unknown) => {
      if (kindFailureReason(error) === null) endNow(error);
    });
    return done;
  });
  return Promise.race([ended, Promise.allSettled(runs)]);
}
