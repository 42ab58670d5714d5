import type { SyncType } from '../../platform/index.ts';
import {
  type ButtonFlag,
  type ButtonObjectType,
  kindSpec,
  OBJECT_KINDS,
  type ObjectKindName,
} from '../objects/index.ts';

/** docs/platform.md G29: unposted requested rows are marked failed after 5 minutes. */
export const SYNC_WINDOW_MS = 5 * 60_000;

export type { ButtonObjectType };

export interface ButtonObjectSpec {
  kind: ObjectKindName;
  syncType: SyncType;
  /** The connection setting that turns the button on (docs/platform.md G28, F6). */
  flag: ButtonFlag;
}

/** The kinds the sync button exists for, by object type (the registry's `syncButton`, G28). */
export const BUTTON_OBJECTS = Object.fromEntries(
  OBJECT_KINDS.flatMap((kind) => {
    const { syncButton, syncTypes } = kindSpec(kind);
    return syncButton
      ? [[syncButton.objectType, { kind, syncType: syncTypes[0]!, flag: syncButton.flag }]]
      : [];
  }),
) as Record<ButtonObjectType, ButtonObjectSpec>;

/**
 * When the platform closes the request: 5 minutes from the event's created_at, or from when it
 * reached us if that is earlier (a platform clock ahead of ours must not buy us time we lack).
 */
export function deadlineOf(createdAt: string, receivedAt: number, windowMs = SYNC_WINDOW_MS): Date {
  const created = Date.parse(createdAt);
  const start = Number.isFinite(created) ? Math.min(created, receivedAt) : receivedAt;
  return new Date(start + windowMs);
}
