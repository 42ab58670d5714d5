import type { Sql } from 'postgres';
import type { Listing, PlatformClient, SyncType } from '../../platform/index.ts';
import { kindSpec, OBJECT_KINDS, type PlatformObject } from '../objects/index.ts';
import { reportedByUs } from '../sync-ledger/index.ts';

export interface ExternalSync {
  objectId: string;
  syncType: SyncType;
  syncedAt: string | null;
}

interface Source {
  syncType: SyncType;
  cursor: string;
  list(since: string | undefined): Listing<PlatformObject>;
  /** The time the cursor advances to for an item. */
  timeOf(item: PlatformObject): string | null;
}

/** One source per kind, first sync type (docs/platform.md G25): what the kind's list shows synced. */
function sources(platform: PlatformClient): Source[] {
  return OBJECT_KINDS.map((kind) => {
    const { list, synced, syncTypes } = kindSpec(kind);
    return {
      syncType: syncTypes[0]!,
      cursor: `reconcile:${kind}`,
      timeOf: (item) => synced.timeOf(item),
      list: (since) =>
        platform.objects.list(list, { ...synced.query, ...(since ? { [synced.since]: since } : {}) }),
    };
  });
}

async function readCursor(sql: Sql, connectionId: string, name: string): Promise<string | undefined> {
  const [row] = await sql<
    { value: string }[]
  >`select value from cursors where connection_id = ${connectionId} and name = ${name}`;
  return row?.value;
}

async function writeCursor(sql: Sql, connectionId: string, name: string, value: string): Promise<void> {
  await sql`
    insert into cursors (connection_id, name, value) values (${connectionId}, ${name}, ${value})
    on conflict (connection_id, name) do update set value = excluded.value, updated_at = now()`;
}

/**
 * docs/platform.md G25: the platform's manual export button marks objects synced without
 * telling the integrator. Reads what the platform shows as synced since the last read
 * (delta reads: synced_after, bills from_created_at; cursors in Postgres), keeps the ones
 * ledgersync never reported, records them in external_syncs and returns the new ones. What is
 * recorded stays listed (`unacknowledged`) until the operator acknowledges it.
 */
export async function findExternalSyncs(
  sql: Sql,
  platform: PlatformClient,
  connectionId: string,
): Promise<ExternalSync[]> {
  const found: ExternalSync[] = [];
  for (const source of sources(platform)) {
    const since = await readCursor(sql, connectionId, source.cursor);
    let latest = since;
    for await (const page of source.list(since).pages()) {
      const items = page.items.flatMap((i) => (i.ok ? [i.value] : []));
      const ours = await reportedByUs(
        sql,
        connectionId,
        source.syncType,
        items.map((i) => i.id),
      );
      for (const item of items) {
        const at = source.timeOf(item);
        if (at && (!latest || at > latest)) latest = at;
        if (!ours.has(item.id))
          found.push({ objectId: item.id, syncType: source.syncType, syncedAt: item.synced_at ?? null });
      }
    }
    if (latest && latest !== since) await writeCursor(sql, connectionId, source.cursor, latest);
  }
  if (found.length > 0) {
    await sql`
      insert into external_syncs ${sql(found.map((f) => ({ connection_id: connectionId, object_id: f.objectId, sync_type: f.syncType, synced_at: f.syncedAt })))}
      on conflict do nothing`;
  }
  return found;
}

/** Every object synced outside ledgersync that the operator has not acknowledged, oldest first. */
async function unacknowledged(sql: Sql, connectionId: string): Promise<ExternalSync[]> {
  const rows = await sql<{ object_id: string; sync_type: SyncType; synced_at: Date | null }[]>`
    select object_id, sync_type, synced_at from external_syncs
     where connection_id = ${connectionId} and acknowledged_at is null
     order by found_at, sync_type, object_id`;
  return rows.map((r) => ({
    objectId: r.object_id,
    syncType: r.sync_type,
    syncedAt: r.synced_at ? r.synced_at.toISOString() : null,
  }));
}

/**
 * Reads what is new on the platform, then answers everything still unacknowledged: a listing
 * can be read any number of times.
 */
export async function reconcile(
  sql: Sql,
  platform: PlatformClient,
  connectionId: string,
): Promise<ExternalSync[]> {
  await findExternalSyncs(sql, platform, connectionId);
  return unacknowledged(sql, connectionId);
}

/** Acknowledges the given object ids (all when `objectIds` is null); answers the ids it did not find unacknowledged. */
export async function acknowledge(
  sql: Sql,
  connectionId: string,
  objectIds: readonly string[] | null,
): Promise<{ acknowledged: number; notFound: string[] }> {
  const rows = await sql<{ object_id: string }[]>`
    update external_syncs set acknowledged_at = now()
     where connection_id = ${connectionId} and acknowledged_at is null
       ${objectIds === null ? sql`` : sql`and object_id = any(${objectIds as string[]}::text[])`}
    returning object_id`;
  const done = new Set(rows.map((r) => r.object_id));
  return { acknowledged: rows.length, notFound: (objectIds ?? []).filter((id) => !done.has(id)) };
}
