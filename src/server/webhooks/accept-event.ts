import type { Sql } from 'postgres';
import type { Logger } from '../../log.ts';
import type { WebhookEvent } from '../../platform/index.ts';
import {
  ENQUEUE_DEADLINE_MS,
  enqueueCoalescedSync,
  enqueueSyncButton,
  enqueueWithin,
  type Queues,
} from '../../queue/index.ts';
import {
  closeSyncRequest,
  databaseTime,
  deadlineOf,
  getSyncRequest,
  recordSyncRequest,
  SYNC_WINDOW_MS,
} from '../../sync/sync-button/index.ts';
import { actionFor, type EventAction } from './event-actions.ts';
import { markEventEnqueued, recordEvent } from './webhook-store.ts';

export interface AcceptDeps {
  sql: Sql;
  queues: Queues;
  /** The accounting connection this worker syncs. */
  connectionId: string;
  log: Logger;
  /** Events older than this are not acted on (a replay of a captured delivery, or a very late retry). */
  maxEventAgeMs: number;
  /** The sync-button watchdog runs this long before the deadline; unset: from the latency seen. */
  watchdogLeadMs?: number | undefined;
  /** The sync-button window (docs/platform.md G29: 5 minutes); shorter only against a stub set so. */
  syncWindowMs?: number | undefined;
  /**
   * When the event reached us. Unset (production): the database's clock, the one every time of a
   * press is compared with (its read windows, its deadline, the attribution of its rows); this
   * process's clock may be off (a worker 90 s behind let half its presses' rows expire). Tests set it.
   */
  now?: () => number | Promise<number>;
  /** An enqueue that takes longer fails the delivery (5xx, F21 redelivers); default 2 s. */
  enqueueWithinMs?: number;
}

export type Acceptance =
  | { status: 'accepted'; action: string }
  | { status: 'duplicate' }
  | { status: 'ignored'; reason: string }
  | { status: 'invalid'; reason: string };

function describe(action: EventAction): string {
  if (action.kind === 'sync') return `sync ${action.objectKind}`;
  if (action.kind === 'sync_button') return `sync button ${action.objectType}`;
  return action.kind;
}

/**
 * Acts on one verified event, never holding a database transaction across a Redis call
 * (docs/decisions.md "Webhooks: commit, then enqueue"): the event id is recorded and committed,
 * then its job is enqueued with a deadline, then the id is marked enqueued. When the enqueue
 * fails (Redis down) the caller answers 5xx and the platform redelivers the same id (F21); that
 * delivery finds the id recorded but not enqueued and enqueues it then. An id already enqueued
 * is a duplicate. Job and deduplication ids make a second enqueue of the same work harmless.
 */
export async function acceptEvent(deps: AcceptDeps, event: WebhookEvent): Promise<Acceptance> {
  const action = actionFor(event);
  if (action.kind === 'invalid') return { status: 'invalid', reason: action.reason };
  if (action.kind === 'ignore') return { status: 'ignored', reason: action.reason };
  const receivedAt = deps.now ? await deps.now() : (await databaseTime(deps.sql)).getTime();
  const created = Date.parse(event.created_at);
  if (receivedAt - created > deps.maxEventAgeMs) return { status: 'ignored', reason: 'event too old' };
  if ((await recordEvent(deps.sql, event)) === 'done') return { status: 'duplicate' };
  const enqueueWithinMs = deps.enqueueWithinMs ?? ENQUEUE_DEADLINE_MS;
  if (action.kind === 'sync') {
    await enqueueWithin(enqueueWithinMs, () =>
      enqueueCoalescedSync(deps.queues, deps.connectionId, action.objectKind, { trigger: 'webhook' }),
    );
    await markEventEnqueued(deps.sql, event.id);
    return { status: 'accepted', action: describe(action) };
  }
  const acceptance = await acceptSyncButton(deps, action, event, receivedAt, enqueueWithinMs);
  await markEventEnqueued(deps.sql, event.id);
  return acceptance;
}

/**
 * The request is recorded once by its sync_request_id (a repeated event changes nothing), then
 * enqueued while it is open: a redelivery after a failed enqueue finds it OPEN and enqueues it
 * (the job ids are the request's, so a second enqueue adds nothing).
 */
async function acceptSyncButton(
  deps: AcceptDeps,
  action: Extract<EventAction, { kind: 'sync_button' }>,
  event: WebhookEvent,
  receivedAt: number,
  enqueueWithinMs: number,
): Promise<Acceptance> {
  const windowMs = deps.syncWindowMs ?? SYNC_WINDOW_MS;
  const deadline = deadlineOf(event.created_at, receivedAt, windowMs);
  const request = {
    syncRequestId: action.syncRequestId,
    connectionId: deps.connectionId,
    objectType: action.objectType,
    requestedAt: new Date(Math.min(Date.parse(event.created_at), receivedAt)),
    deadline,
  };
  const isNew = await recordSyncRequest(deps.sql, request);
  const recorded = isNew ? null : await getSyncRequest(deps.sql, action.syncRequestId);
  if (recorded && recorded.state !== 'OPEN') return { status: 'duplicate' };
  const recordedDeadline = recorded?.deadline ?? deadline;
  if (recordedDeadline.getTime() <= receivedAt) {
    // The window closed before the event arrived: the platform has already failed the rows.
    await closeSyncRequest(deps.sql, action.syncRequestId, 'EXPIRED');
    return { status: 'ignored', reason: 'sync window already closed' };
  }
  await enqueueWithin(enqueueWithinMs, () =>
    enqueueSyncButton(
      deps.queues,
      {
        connectionId: recorded?.connectionId ?? deps.connectionId,
        objectType: recorded?.objectType ?? action.objectType,
        syncRequestId: action.syncRequestId,
        deadline: recordedDeadline.toISOString(),
      },
      { watchdogLeadMs: deps.watchdogLeadMs, windowMs, now: receivedAt },
    ),
  );
  if (!isNew) return { status: 'accepted', action: describe(action) };
  // The delivery's own line (webhook-route.ts) names the request; this adds its deadline.
  deps.log.debug(
    { syncRequestId: action.syncRequestId, deadline: recordedDeadline.toISOString() },
    'sync button pressed',
  );
  return { status: 'accepted', action: describe(action) };
}
