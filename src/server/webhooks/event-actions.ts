import type { EventType, WebhookEvent } from '../../platform/index.ts';
import {
  type ButtonObjectType,
  kindSpec,
  OBJECT_KINDS,
  type ObjectKindName,
} from '../../sync/objects/index.ts';

const SYNC_ON: Record<string, ObjectKindName> = Object.fromEntries(
  OBJECT_KINDS.flatMap((kind) => kindSpec(kind).syncOn.map((event) => [event, kind])),
);

const BUTTONS = OBJECT_KINDS.flatMap((kind) => {
  const button = kindSpec(kind).syncButton;
  return button ? [button] : [];
});

const BUTTON_ON: Record<string, ButtonObjectType> = Object.fromEntries(
  BUTTONS.map((button) => [button.event, button.objectType]),
);

/**
 * The events this worker subscribes to (docs/platform.md G12, F20): what starts a kind's sync,
 * then the sync-button presses, as the object-kind registry declares them.
 */
export const SUBSCRIBED_EVENTS: readonly EventType[] = [
  ...OBJECT_KINDS.flatMap((kind) => kindSpec(kind).syncOn),
  ...BUTTONS.map((button) => button.event),
];

export type EventAction =
  | { kind: 'sync'; objectKind: ObjectKindName }
  | { kind: 'sync_button'; objectType: ButtonObjectType; syncRequestId: string }
  | { kind: 'ignore'; reason: string }
  | { kind: 'invalid'; reason: string };

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
