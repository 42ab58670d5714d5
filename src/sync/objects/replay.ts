import type { PlatformClient } from '../../platform/client.ts';
import { withAdvisoryLock } from '../advisory-lock.ts';
import { billSteps } from '../bill-decision.ts';
import { freezeAndSend } from '../reporting/index.ts';
import { latestOutcome, ledgerSyncType } from '../sync-ledger/object-lookups.ts';
import { KIND_SPECS, OBJECT_KINDS, type ObjectKindName } from './kinds.ts';
import { emptySummary, type ObjectSyncDeps, type ObjectSyncSummary, processPage } from './sync-objects.ts';

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
const FETCHABLE: ObjectKindName[] = ['transactions', 'reimbursements', 'bills'];

/** Why the other kinds cannot be replayed: a replay starts by reading the object again. */
const NO_SINGLE_READ =
  'a replay reads the object again from the platform first, and the platform offers no single read for transfers or cashbacks, only the list of ready ones (docs/platform.md G20).';

async function fetchObject(
  client: PlatformClient,
  kind: ObjectKindName,
  id: string,
): Promise<unknown | null> {
  try {
    if (kind === 'transactions') return await client.objects.transaction(id);
    if (kind === 'reimbursements') return await client.objects.reimbursement(id);
    if (kind === 'bills') return await client.objects.bill(id);
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
  return null;
}

async function knownKind(deps: ObjectSyncDeps, objectId: string): Promise<ObjectKindName | null> {
  const syncType = await ledgerSyncType(deps.sql, deps.connectionId, objectId);
  if (syncType === null) return null;
  return OBJECT_KINDS.find((k) => KIND_SPECS[k].syncTypes.includes(syncType as never)) ?? null;
}

function isReady(kind: ObjectKindName, object: Record<string, unknown>): boolean {
  if (kind === 'bills') return billSteps(object as never).length > 0;
  return object.sync_status === 'SYNC_READY';
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
    const object = (await fetchObject(client, kind, objectId)) as Record<string, unknown> | null;
    if (!object) continue;
    if (!isReady(kind, object)) {
      return {
        status: 'not_ready',
        kind,
        message: `${objectId} is not ready to sync on the platform (already synced, or not marked ready).`,
      };
    }
    const spec = KIND_SPECS[kind];
    const outcome = await withAdvisoryLock(
      deps.sql,
      `ledgersync:sync:${deps.connectionId}:${kind}`,
      async () => {
        const summary = emptySummary(kind);
        const parsed = spec.schema.safeParse(object);
        const item = parsed.success
          ? { ok: true as const, value: parsed.data }
          : { ok: false as const, id: objectId, error: parsed.error.message };
        await processPage(deps, kind, [item], summary);
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
    message: `No transaction, reimbursement or bill ${objectId} was found on the platform. Transfers and cashbacks cannot be replayed: ${NO_SINGLE_READ} If ${objectId} is one, run \`ledgersync sync transfers\` or \`ledgersync sync cashbacks\`.`,
  };
}
