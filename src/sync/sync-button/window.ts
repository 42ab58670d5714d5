import type { ObjectKindName } from '../objects/kinds.ts';

/** docs/platform.md G29: unposted requested rows are marked failed after 5 minutes. */
export const SYNC_WINDOW_MS = 5 * 60_000;

export type ButtonObjectType = 'TRANSACTION' | 'REIMBURSEMENT';

export interface ButtonObjectSpec {
  kind: ObjectKindName;
  syncType: 'TRANSACTION_SYNC' | 'REIMBURSEMENT_SYNC';
  /** The connection setting that turns the button on (docs/platform.md G28, F6). */
  flag: 'transaction_sync_button_enabled' | 'reimbursement_sync_button_enabled';
}

/** The two kinds the sync button exists for (docs/platform.md G12: *.sync_requested). */
export const BUTTON_OBJECTS: Record<ButtonObjectType, ButtonObjectSpec> = {
  TRANSACTION: {
    kind: 'transactions',
    syncType: 'TRANSACTION_SYNC',
    flag: 'transaction_sync_button_enabled',
  },
  REIMBURSEMENT: {
    kind: 'reimbursements',
    syncType: 'REIMBURSEMENT_SYNC',
    flag: 'reimbursement_sync_button_enabled',
  },
};

/**
 * When the platform closes the request: 5 minutes from the event's created_at, or from when it
 * reached us if that is earlier (a platform clock ahead of ours must not buy us time we lack).
 */
export function deadlineOf(createdAt: string, receivedAt: number, windowMs = SYNC_WINDOW_MS): Date {
  const created = Date.parse(createdAt);
  const start = Number.isFinite(created) ? Math.min(created, receivedAt) : receivedAt;
  return new Date(start + windowMs);
}
