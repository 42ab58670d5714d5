import { PlatformError, ValidationError } from '../../platform/index.ts';
import { type Change, type Deactivation, patchBody } from './diff.ts';
import type { KindOps } from './model.ts';
import type { AppliedChange } from './store.ts';

export type LifecycleStep =
  | { type: 'change'; change: Change }
  | { type: 'deactivate'; deactivation: Deactivation };

export interface LifecycleSink {
  applied(step: LifecycleStep, row: AppliedChange): Promise<void>;
  /** The platform refused the step (422), or the kind has no such operation. */
  refused(step: LifecycleStep, reason: string): Promise<void>;
  /** 404: the platform no longer knows the svc_id (connection unlinked, docs/platform.md G13). */
  missing(step: LifecycleStep, reason: string): Promise<void>;
  /** Called before every platform call: throws to stop (abort signal). */
  beforeCall(): void;
}

/**
 * Item lifecycle (docs/platform.md G17, F12), one call per item: PATCH by svc_id for content,
 * `reactivate: true` and visibility (together, in one call), DELETE to set is_active false.
 * Up to `concurrency` calls in flight; the client's shared rate limiter paces them (F3). An
 * error that is not the item's own (network, 5xx after retries, 7089) stops every worker.
 */
export async function applyLifecycle(
  ops: KindOps,
  steps: readonly LifecycleStep[],
  sink: LifecycleSink,
  concurrency = 4,
): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (failure === null && next < steps.length) {
      const step = steps[next++]!;
      try {
        await applyOne(ops, step, sink);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, steps.length)) }, worker));
  if (failure !== null) throw failure;
}

async function applyOne(ops: KindOps, step: LifecycleStep, sink: LifecycleSink): Promise<void> {
  const call = step.type === 'change' ? ops.patch : ops.remove;
  if (!call) {
    const what = step.type === 'change' ? 'update (PATCH)' : 'deactivation (DELETE)';
    await sink.refused(step, `the platform offers no ${what} for ${ops.kind}`);
    return;
  }
  sink.beforeCall();
  try {
    if (step.type === 'change') {
      await ops.patch!(step.change.svcId, patchBody(step.change));
      const { item, svcId } = step.change;
      const visibility = ops.visibility && item.hidden ? 'HIDDEN' : 'VISIBLE';
      // content unchanged means the row's hash already equals the item's.
      await sink.applied(step, {
        remoteId: item.remoteId,
        svcId,
        isActive: true,
        hash: item.hash,
        visibility,
      });
    } else {
      await ops.remove!(step.deactivation.svcId);
      const { remoteId, svcId } = step.deactivation;
      await sink.applied(step, { remoteId, svcId, isActive: false });
    }
  } catch (error) {
    if (error instanceof ValidationError && error.status === 422) {
      await sink.refused(step, error.platformMessage);
    } else if (error instanceof PlatformError && error.status === 404) {
      await sink.missing(step, error.platformMessage);
    } else {
      throw error;
    }
  }
}
