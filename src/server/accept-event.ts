import type { Sql } from 'postgres';
import { enqueueCoalescedSync, enqueueSyncButton } from '../../jobs/enqueue.ts';
import type { Queues } from '../../jobs/queues.ts';
import type { Logger } from '../log.ts';
import type { WebhookEvent } from '../platform/schemas/webhooks.ts';
import { closeSyncRequest, recordSyncRequest } from '../sync/sync-button/requests.ts';
import { deadlineOf } from '../sync/sync-button/window.ts';
import { actionFor, type EventAction } from './event-actions.ts';
import { recordEventOnce } from './webhook-store.ts';

export interface AcceptDeps {
  sql: Sql;
  queues: Queues;
  /** The accounting connection this worker syncs. */
  connectionId: string;
  log: Logger;
  /** Events older than this are not acted on (a replay of a captured delivery, or a very late retry). */
  maxEventAgeMs: number;
  /** The sync-button watchdog runs this long before the deadline. */
  watchdogLeadMs: number;
  now: () => number;
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
 * Acts on one verified event: its id is recorded and its job enqueued in one database
 * transaction, so a failure to enqueue leaves the id unrecorded and the platform's retry (F21)
 * gets another chance; a repeated id is a no-op. Job ids make a second enqueue harmless.
 */
export async function acceptEvent(deps: AcceptDeps, event: WebhookEvent): Promise<Acceptance> {
  const action = actionFor(event);
  if (action.kind === 'invalid') return { status: 'invalid', reason: action.reason };
  if (action.kind === 'ignore') return { status: 'ignored', reason: action.reason };
  const receivedAt = deps.now();
  const created = Date.parse(event.created_at);
  if (receivedAt - created > deps.maxEventAgeMs) return { status: 'ignored', reason: 'event too old' };
  return deps.sql.begin(async (tx) => {
    const sql = tx as unknown as Sql;
    if (!(await recordEventOnce(sql, event))) return { status: 'duplicate' } as const;
    if (action.kind === 'sync') {
      await enqueueCoalescedSync(deps.queues, deps.connectionId, action.objectKind, { trigger: 'webhook' });
      return { status: 'accepted', action: describe(action) } as const;
    }
    return acceptSyncButton(deps, sql, action, event, receivedAt);
  }) as Promise<Acceptance>;
}

async function acceptSyncButton(
  deps: AcceptDeps,
  sql: Sql,
  action: Extract<EventAction, { kind: 'sync_button' }>,
  event: WebhookEvent,
  receivedAt: number,
): Promise<Acceptance> {
  const deadline = deadlineOf(event.created_at, receivedAt);
  const request = {
    syncRequestId: action.syncRequestId,
    connectionId: deps.connectionId,
    objectType: action.objectType,
    requestedAt: new Date(Math.min(Date.parse(event.created_at), receivedAt)),
    deadline,
  };
  if (!(await recordSyncRequest(sql, request))) return { status: 'duplicate' };
  if (deadline.getTime() <= receivedAt) {
    // The window closed before the event arrived: the platform has already failed the rows.
    await closeSyncRequest(sql, action.syncRequestId, 'EXPIRED');
    return { status: 'ignored', reason: 'sync window already closed' };
  }
  await enqueueSyncButton(
    deps.queues,
    {
      connectionId: deps.connectionId,
      objectType: action.objectType,
      syncRequestId: action.syncRequestId,
      deadline: deadline.toISOString(),
    },
    { watchdogLeadMs: deps.watchdogLeadMs, now: receivedAt },
  );
  deps.log.info(
    { syncRequestId: action.syncRequestId, deadline: deadline.toISOString() },
    'sync button pressed',
  );
  return { status: 'accepted', action: describe(action) };
}
