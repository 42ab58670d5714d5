import type { EventType, WebhookEvent } from '../../platform/schemas/webhooks.ts';
import type { ObjectKindName } from '../../sync/objects/kinds.ts';
import type { ButtonObjectType } from '../../sync/sync-button/window.ts';

/** The events this worker subscribes to (docs/platform.md G12, F20). */
export const SUBSCRIBED_EVENTS: readonly EventType[] = [
  'transactions.ready_to_sync',
  'reimbursements.ready_to_sync',
  'bills.ready_to_sync',
  'bills.paid',
  'transactions.sync_requested',
  'reimbursements.sync_requested',
];

export type EventAction =
  | { kind: 'sync'; objectKind: ObjectKindName }
  | { kind: 'sync_button'; objectType: ButtonObjectType; syncRequestId: string }
  | { kind: 'ignore'; reason: string }
  | { kind: 'invalid'; reason: string };

const SYNC_ON: Record<string, ObjectKindName> = {
  'transactions.ready_to_sync': 'transactions',
  'reimbursements.ready_to_sync': 'reimbursements',
  'bills.ready_to_sync': 'bills',
  // A paid bill may now wait for BILL_PAYMENT_SYNC (docs/platform.md G23).
  'bills.paid': 'bills',
};

const BUTTON_ON: Record<string, ButtonObjectType> = {
  'transactions.sync_requested': 'TRANSACTION',
  'reimbursements.sync_requested': 'REIMBURSEMENT',
};

/**
 * What an event makes the worker do. Events are triggers to re-read the object, never data to
 * trust (docs/platform.md G12): nothing here reads the object beyond the sync_request_id the
 * sync-button events carry (F21).
 */
export function actionFor(event: Pick<WebhookEvent, 'type' | 'object'>): EventAction {
  const objectKind = SYNC_ON[event.type];
  if (objectKind) return { kind: 'sync', objectKind };
  const objectType = BUTTON_ON[event.type];
  if (objectType) {
    const syncRequestId = event.object.sync_request_id;
    if (!syncRequestId) return { kind: 'invalid', reason: `${event.type} without object.sync_request_id` };
    return { kind: 'sync_button', objectType, syncRequestId };
  }
  return { kind: 'ignore', reason: `no work for ${event.type}` };
}
