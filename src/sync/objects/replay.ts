import { capitalized } from '../../erp/index.ts';
import type { PlatformClient } from '../../platform/index.ts';
import { withAdvisoryLock } from '../advisory-lock.ts';
import { freezeAndSend } from '../reporting/index.ts';
import { latestOutcome, ledgerSyncType } from '../sync-ledger/index.ts';
import { kindOfSyncType, kindSpec, OBJECT_KINDS, type ObjectKindName, type PlatformObject } from './kinds.ts';
import { objectSyncLockName } from './lock-name.ts';
import { processPage } from './page-step.ts';
import { emptySummary, type ObjectSyncDeps, type ObjectSyncSummary } from './run-modes/run-context.ts';

export type ReplayResult =
  | {
      status: 'synced' | 'failed' | 'rejected';
      kind: ObjectKindName;
      summary: ObjectSyncSummary;
      message: string | null;
    }
  | {
      status: 'not_found' | 'not_ready' | 'busy' | 'unsupported';
      kind: ObjectKindName | null;
      message: string;
    };

/** The kinds the platform can read one by one (docs/platform.md G20 lists single reads for these). */
const FETCHABLE = OBJECT_KINDS.filter((k) => kindSpec(k).list.singleRead);
const UNFETCHABLE = OBJECT_KINDS.filter((k) => !kindSpec(k).list.singleRead);

/** Words as a sentence says them: `a, b or c`. */
function spoken(words: readonly string[], conjunction: 'or' | 'and'): string {
  return words.length < 2
    ? words.join('')
    : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
}

/** Why the other kinds cannot be replayed: a replay starts by reading the object again. */
const NO_SINGLE_READ = `a replay reads the object again from the platform first, and the platform offers no single read for ${spoken(UNFETCHABLE, 'or')}, only the list of ready ones (docs/platform.md G20).`;

function notFound(objectId: string): string {
  const fetchable = spoken(
    FETCHABLE.map((k) => kindSpec(k).list.what),
    'or',
  );
  const commands = spoken(
    UNFETCHABLE.map((k) => `\`ledgersync sync ${k}\``),
    'or',
  );
  return `No ${fetchable} ${objectId} was found on the platform. ${capitalized(spoken(UNFETCHABLE, 'and'))} cannot be replayed: ${NO_SINGLE_READ} If ${objectId} is one, run ${commands}.`;
}

async function fetchObject(
  client: PlatformClient,
  kind: ObjectKindName,
  id: string,
): Promise<PlatformObject | null> {
  try {
    return await client.objects.one(kindSpec(kind).list, id);
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

async function knownKind(deps: ObjectSyncDeps, objectId: string): Promise<ObjectKindName | null> {
  const syncType = await ledgerSyncType(deps.sql, deps.connectionId, objectId);
  return syncType === null ? null : kindOfSyncType(syncType);
}

/**
 * Re-syncs one object now, typically after the bookkeeper fixed the coding a failure named: the
 * object is read again from the platform (never trusted from memory), then goes through the same
 * plan → ERP → outbox path as a page of a full sync.
 */
export async function replayObject(
  deps: ObjectSyncDeps,
  client: PlatformClient,
  objectId: string,
): Promise<ReplayResult> {
  const known = await knownKind(deps, objectId);
  const candidates = known ? [known] : FETCHABLE;
  if (known && !FETCHABLE.includes(known)) {
    return {
      status: 'unsupported',
      kind: known,
      message: `${objectId} is one of the ${known}, which cannot be replayed: ${NO_SINGLE_READ} Run \`ledgersync sync ${known}\` instead; it reads every ready one.`,
    };
  }
  for (const kind of candidates) {
    const spec = kindSpec(kind);
    const object = await fetchObject(client, kind, objectId);
    if (!object) continue;
    if (!spec.waiting(object)) {
      return {
        status: 'not_ready',
        kind,
        message: `${objectId} is not ready to sync on the platform (already synced, or not marked ready).`,
      };
    }
    const outcome = await withAdvisoryLock(
      deps.sql,
      objectSyncLockName(deps.connectionId, kind),
      async () => {
        const summary = emptySummary(kind);
        await processPage(deps, kind, [{ ok: true, value: object }], summary);
        summary.reported = await freezeAndSend(
          { sql: deps.sql, platform: deps.platform, connectionId: deps.connectionId, log: deps.log },
          spec.syncTypes,
        );
        return summary;
      },
    );
    if (outcome.busy)
      return { status: 'busy', kind, message: `A ${kind} sync is running; try again when it ends.` };
    const row = await latestOutcome(deps.sql, deps.connectionId, objectId);
    if (row?.platform_status === 'REJECTED') {
      return {
        status: 'rejected',
        kind,
        summary: outcome.value,
        message: `The platform rejected the result: ${row.platform_reason || 'no reason given'}`,
      };
    }
    const failed = row?.outcome === 'failure';
    return {
      status: failed ? 'failed' : 'synced',
      kind,
      summary: outcome.value,
      message: row?.error_message ?? null,
    };
  }
  return {
    status: 'not_found',
    kind: known,
    message: notFound(objectId),
  };
}
