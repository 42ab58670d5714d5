import type { Sql } from 'postgres';
import type { Logger } from '../../log.ts';
import type { PlatformClient } from '../../platform/index.ts';
import { withAdvisoryLock } from '../advisory-lock.ts';
import { countMirrored, mirrorLockName } from '../mirror/index.ts';
import { connectionLockNames, withLocks } from './lock-names.ts';
import { type RebuiltCounts, rebuildIdMap } from './rebuild-id-map.ts';
import { type CarriedOver, connectionAfterSwitches, openMigration, recordSwitch } from './store.ts';
import type { MigrationRow } from './types.ts';

export interface SwitchDeps {
  sql: Sql;
  platform: Pick<PlatformClient, 'connection' | 'chart' | 'request'>;
  log: Logger;
}

/** How the chart's id_map of the new connection was found once the switch was recorded. */
type IdMapOrigin =
  /** The preload recorded every item under the new connection: nothing to do. */
  | 'preloaded'
  /** None was recorded here: rebuilt from what the platform holds for the new connection. */
  | { rebuilt: RebuiltCounts }
  /** A mirror of the new connection is running and records (or adopts) them itself. */
  | 'mirror_running';

export type SwitchOutcome =
  /** No switch concerns this connection: work for it goes where it was addressed. */
  | { kind: 'unchanged'; connectionId: string }
  /** A switch recorded earlier: work for the connection left goes to the new one. */
  | { kind: 'followed'; connectionId: string; left: string }
  /** The customer has switched and this call recorded it. */
  | {
      kind: 'recorded';
      connectionId: string;
      left: string;
      migrationId: string;
      carried: CarriedOver;
      idMap: IdMapOrigin;
    }
  /**
   * The customer has switched, but a run of the connection left is still going: the switch is
   * recorded once it ends. `connectionId` is still the connection left.
   */
  | { kind: 'pending'; connectionId: string; target: string; migrationId: string };

/** Work that must not start until the switch is recorded; retried later. */
export class ConnectionSwitchPendingError extends Error {
  override name = 'ConnectionSwitchPendingError';
  constructor(readonly outcome: Extract<SwitchOutcome, { kind: 'pending' }>) {
    super(
      `The customer switched to connection ${outcome.target} (migration #${outcome.migrationId}); a sync of the ` +
        `connection left (${outcome.connectionId}) is still running, and the switch is recorded when it ends. ` +
        'Run again in a moment.',
    );
  }
}

/**
 * The connection work addressed to `connectionId` belongs to, noticing a switch the customer made
 * in the platform (docs/platform.md G31, last row). Without a recorded or prepared migration this
 * is two reads of the worker's own tables and no platform call; while a migration waits for the
 * customer (state ready), one read of the new connection says whether they have switched.
 *
 * The first caller to see the switch records it (completeSwitch): from then on every run goes to
 * the new connection, and the connection left is never written to again by this worker.
 */
export async function followSwitch(deps: SwitchDeps, connectionId: string): Promise<SwitchOutcome> {
  const after = await connectionAfterSwitches(deps.sql, connectionId);
  if (after) return { kind: 'followed', connectionId: after, left: connectionId };
  const open = await openMigration(deps.sql);
  const target = open?.targetConnectionId;
  if (open?.state !== 'ready' || !target) return { kind: 'unchanged', connectionId };
  if (connectionId !== open.sourceConnectionId && connectionId !== target) {
    return { kind: 'unchanged', connectionId };
  }
  const now = await deps.platform.connection.get(target);
  if (!now?.is_active) return { kind: 'unchanged', connectionId };
  // Pending: work goes on as before the switch, for the connection left, until it is recorded.
  return completeSwitch(deps, open);
}

/**
 * Records a switch the platform shows (the migration's target is active): holding every lock of
 * the connection left (one per object kind, and its chart mirror), so no run of it is moving its
 * rows, the migration moves ready → switched and its unfinished work is carried over in one
 * transaction (recordSwitch, store.ts). Then the new connection's id_map is checked: the preload
 * recorded it; when it is missing (the target was preloaded by other means) it is rebuilt from
 * the platform. `pending` when a run of the connection left is still going.
 */
export async function completeSwitch(
  deps: SwitchDeps,
  open: MigrationRow,
): Promise<Exclude<SwitchOutcome, { kind: 'unchanged' }>> {
  const source = open.sourceConnectionId;
  const target = open.targetConnectionId!;
  const held = await withLocks(deps.sql, connectionLockNames(source), () =>
    recordSwitch(deps.sql, open.id, { source, target }),
  );
  if (held.busy) {
    deps.log.info(
      { migration: open.id, source, target },
      'the customer switched connections; waiting for a run of the connection left to end',
    );
    return { kind: 'pending', connectionId: source, target, migrationId: open.id };
  }
  if (!held.value) {
    // Another process recorded it between our read and our move.
    return { kind: 'followed', connectionId: target, left: source };
  }
  const idMap = await ensureIdMap(deps, target);
  deps.log.info(
    {
      migration: open.id,
      source,
      target,
      carried: held.value.carried,
      idMap: typeof idMap === 'string' ? idMap : 'rebuilt',
    },
    'the customer switched connections: syncing into the new one from now on',
  );
  return {
    kind: 'recorded',
    connectionId: target,
    left: source,
    migrationId: open.id,
    carried: held.value.carried,
    idMap,
  };
}

async function ensureIdMap(deps: SwitchDeps, connectionId: string): Promise<IdMapOrigin> {
  if ((await countMirrored(deps.sql, connectionId)) > 0) return 'preloaded';
  const rebuilt = await withAdvisoryLock(deps.sql, mirrorLockName(connectionId), () =>
    rebuildIdMap(deps, connectionId),
  );
  return rebuilt.busy ? 'mirror_running' : { rebuilt: rebuilt.value };
}
