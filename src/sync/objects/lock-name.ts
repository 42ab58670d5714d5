import type { ObjectKindName } from './kinds.ts';

/**
 * The advisory lock an object sync of `kind` holds for `connectionId`, and replay too: one run of
 * a kind at a time per connection. A sync-button run holds a lock of its own press
 * (`syncRequestId`): presses run beside the bulk run, each over its own rows. A connection
 * migration takes the kind locks (without a press) to wait out the runs of the old connection.
 */
export function objectSyncLockName(
  connectionId: string,
  kind: ObjectKindName,
  syncRequestId?: string,
): string {
  return `ledgersync:sync:${connectionId}:${kind}${syncRequestId ? `:${syncRequestId}` : ''}`;
}
