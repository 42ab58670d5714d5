import type { ObjectKindName } from '../src/sync/objects/kinds.ts';
import { SYNC_WINDOW_MS } from '../src/sync/sync-button/window.ts';
import { coalesceId, scheduledJobId, syncButtonJobId, watchdogJobId } from './job-ids.ts';
import type { CoaMirrorPayload, SyncButtonPayload, SyncObjectsPayload, Trigger } from './payloads.ts';
import type { Queues } from './queues.ts';

/** Triggers only enqueue: these are the only ways work enters the queues. */

/** A cron tick: one job per connection, kind and window across every replica. */
export async function enqueueScheduledSync(
  queues: Queues,
  connectionId: string,
  kind: ObjectKindName,
  window: Date,
): Promise<void> {
  const data: SyncObjectsPayload = { connectionId, kind, trigger: 'cron' };
  await queues.objectSync.add(`sync ${kind}`, data, { jobId: scheduledJobId(connectionId, kind, window) });
}

export async function enqueueScheduledMirror(
  queues: Queues,
  connectionId: string,
  window: Date,
): Promise<void> {
  const data: CoaMirrorPayload = { connectionId, trigger: 'cron' };
  await queues.coaMirror.add('mirror chart', data, { jobId: scheduledJobId(connectionId, 'coa', window) });
}

/**
 * An event says objects of a kind may be ready: at most one run waits per kind, however many
 * events arrive (a burst of 1,000 makes one run). An event that arrives while a run is active
 * leaves exactly one follow-up, because the active run may already have passed that object.
 */
export async function enqueueCoalescedSync(
  queues: Queues,
  connectionId: string,
  kind: ObjectKindName,
  options: { trigger?: Trigger; delayMs?: number } = {},
): Promise<void> {
  const data: SyncObjectsPayload = { connectionId, kind, trigger: options.trigger ?? 'webhook' };
  await queues.objectSync.add(`sync ${kind}`, data, {
    deduplication: { id: coalesceId(connectionId, kind), keepLastIfActive: true },
    ...(options.delayMs ? { delay: options.delayMs } : {}),
  });
}

/**
 * A sync-button press (docs/platform.md G28): the run on its own queue, and the watchdog due
 * `watchdogLeadMs` before the deadline on another, so neither waits behind the other.
 */
export async function enqueueSyncButton(
  queues: Queues,
  payload: SyncButtonPayload,
  options: { watchdogLeadMs: number; now?: number },
): Promise<void> {
  const now = options.now ?? Date.now();
  await queues.syncButton.add('sync button', payload, { jobId: syncButtonJobId(payload.syncRequestId) });
  await queues.syncWatchdog.add('sync-button watchdog', payload, {
    jobId: watchdogJobId(payload.syncRequestId),
    delay: watchdogDelay(Date.parse(payload.deadline), now, options.watchdogLeadMs),
  });
}

/**
 * When the watchdog runs: `leadMs` before the deadline. A press that reaches us late (less than
 * the window left) also gets half of what is left before the watchdog answers, but never more
 * delay than a press received on time would (so a test's long lead still fires at once).
 */
export function watchdogDelay(deadline: number, now: number, leadMs: number): number {
  const left = deadline - now;
  const onTime = SYNC_WINDOW_MS - leadMs;
  return Math.max(0, Math.round(Math.max(left - leadMs, Math.min(left / 2, onTime))));
}
