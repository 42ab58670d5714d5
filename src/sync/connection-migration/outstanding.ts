import type { AccountingConnection } from '../../platform/index.ts';
import { OBJECT_KINDS, type ObjectKindName, syncObjects } from '../objects/index.ts';
import type { Blocker } from './blockers.ts';
import { failureReasons, unsentResults } from './store.ts';
import type { MigrationDeps } from './types.ts';

/** Ready objects counted per kind before giving up counting (a backlog, not a leftover). */
const COUNT_CAP = 1000;
/** Objects named per kind in the message. */
const NAMED = 10;

interface KindOutstanding {
  count: number;
  /** More than COUNT_CAP are waiting: count is a floor. */
  more: boolean;
  /** The first few, with the ERP's reason when a sync refused them. */
  items: Array<{ id: string; reason?: string }>;
}

export interface Outstanding {
  total: number;
  kinds: Partial<Record<ObjectKindName, KindOutstanding>>;
  unsent: { batches: number; rows: number };
  /** The object sync ran first (API connections only: others cannot be marked synced by API). */
  synced: boolean;
}

/**
 * docs/platform.md G30: sync outstanding objects before migrating. Runs the object sync of every kind
 * on the connection being left (unless told not to, or it is not an API connection: rule 1),
 * then lists what is still ready to sync and what results are still unsent.
 */
export async function findOutstanding(
  deps: MigrationDeps,
  source: Pick<AccountingConnection, 'id' | 'connection_type'>,
  options: { runSync: boolean; signal?: AbortSignal; busyWaitMs?: number },
): Promise<Outstanding> {
  const synced = options.runSync && source.connection_type === 'API';
  if (synced) {
    for (const kind of OBJECT_KINDS) await syncKind(deps, source.id, kind, options);
  }
  const kinds: Outstanding['kinds'] = {};
  let total = 0;
  for (const kind of OBJECT_KINDS) {
    const found = await readyObjects(deps, kind);
    if (found.count === 0) continue;
    const reasons = await failureReasons(
      deps.sql,
      source.id,
      found.items.map((i) => i.id),
    );
    found.items = found.items.map((i) => (reasons.has(i.id) ? { ...i, reason: reasons.get(i.id) } : i));
    kinds[kind] = found;
    total += found.count;
  }
  const unsent = await unsentResults(deps.sql, source.id);
  return { total: total + unsent.batches + unsent.rows, kinds, unsent, synced };
}

/** How long the check waits for a sync of a kind another process is running (then it counts). */
const BUSY_WAIT_MS = 5 * 60_000;
const BUSY_POLL_MS = 2_000;

/**
 * One kind's sync. When another process is running it (the worker's schedule, a webhook), the
 * objects it holds are still listed ready: the check waits for that run to end and syncs again,
 * rather than counting them as left behind.
 */
async function syncKind(
  deps: MigrationDeps,
  connectionId: string,
  kind: ObjectKindName,
  options: { signal?: AbortSignal; busyWaitMs?: number },
): Promise<void> {
  const base = { sql: deps.sql, erp: deps.erp, platform: deps.syncPlatform, log: deps.log };
  const deadline = Date.now() + (options.busyWaitMs ?? BUSY_WAIT_MS);
  let told = false;
  for (;;) {
    options.signal?.throwIfAborted();
    const summary = await syncObjects({ ...base, connectionId }, kind, { slices: 2 });
    if (!summary.busy || Date.now() >= deadline) return;
    if (!told) deps.log.info({ kind }, 'waiting for a running sync of this kind to end before checking it');
    told = true;
    await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
  }
}

async function readyObjects(deps: MigrationDeps, kind: ObjectKindName): Promise<KindOutstanding> {
  const found: KindOutstanding = { count: 0, more: false, items: [] };
  for await (const page of deps.syncPlatform.readyPages(kind)) {
    for (const item of page.items) {
      const id = item.ok ? idOf(item.value) : item.id;
      found.count++;
      if (found.items.length < NAMED) found.items.push({ id: id ?? '(unreadable)' });
    }
    if (found.count >= COUNT_CAP) {
      found.more = true;
      break;
    }
  }
  return found;
}

function idOf(value: unknown): string | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : null;
}

/** The precondition message: which objects, why they wait, and what to do. */
export function outstandingBlocker(outstanding: Outstanding, sourceType: string): Blocker {
  const parts = Object.entries(outstanding.kinds).map(([kind, k]) => {
    const lines = k.items.map((i) => `    ${i.id}${i.reason ? ` — ${i.reason}` : ''}`);
    const rest = k.count - k.items.length;
    if (rest > 0) lines.push(`    and ${rest}${k.more ? '+' : ''} more`);
    return `${kind}: ${k.more ? `${k.count}+` : k.count}\n${lines.join('\n')}`;
  });
  if (outstanding.unsent.batches + outstanding.unsent.rows > 0) {
    parts.push(
      `results not yet reported to the platform: ${outstanding.unsent.batches} batches, ${outstanding.unsent.rows} objects`,
    );
  }
  const sync =
    sourceType === 'API'
      ? 'Fix what the ERP refused (reasons above), run `npx ledgersync sync all`'
      : `The current connection is ${sourceType}, so they cannot be marked synced by API (docs/platform.md G25): sync them with the current integration`;
  return {
    code: 'outstanding_objects',
    message:
      `${outstanding.total} objects are still waiting to sync on the connection being left; after the switch ` +
      `they can no longer be synced to it (docs/platform.md G30):\n  ${parts.join('\n  ')}`,
    fix: `${sync}, then run \`npx ledgersync migrate prepare\` again; or add --force to migrate anyway (they are recorded with the migration and must then be entered by hand).`,
    details: outstanding,
  };
}
