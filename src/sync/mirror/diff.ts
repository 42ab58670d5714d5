import type { DesiredItem, MappedRow, RemoteItem } from './model.ts';
import type { Visibility } from './types.ts';

/** One PATCH: content, reactivation and visibility of an item travel in a single call (F12). */
export interface Change {
  item: DesiredItem;
  svcId: string;
  content: boolean;
  reactivate: boolean;
  visibility: Visibility | null;
}

export interface Deactivation {
  remoteId: string;
  svcId: string;
}

interface KnownFailure {
  remoteId: string;
  reason: string;
  action: 'create' | 'update';
}

export interface Plan {
  creates: DesiredItem[];
  changes: Change[];
  deactivations: Deactivation[];
  /** Content the platform refused before and that has not changed since: not sent again. */
  knownFailures: KnownFailure[];
  unchanged: number;
}

export interface DiffOptions {
  /** The kind has a platform visibility (GL accounts, field options). */
  visibility: boolean;
}

/**
 * ERP items against what was mirrored (id_map rows), pure:
 * - new and active → create (an inactive new item is not created: nothing to mirror);
 * - mirrored, inactive or gone from the ERP → deactivate (DELETE, is_active false);
 * - mirrored and active → one PATCH for whatever differs: content (hash), reactivate, visibility.
 * A content the platform refused (failedHash) is reported again, not resent, until it changes.
 */
export function diffKind(
  items: readonly DesiredItem[],
  rows: ReadonlyMap<string, MappedRow>,
  options: DiffOptions,
): Plan {
  const plan: Plan = { creates: [], changes: [], deactivations: [], knownFailures: [], unchanged: 0 };
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.remoteId)) continue; // an ERP id is unique; a repeat is the same item
    seen.add(item.remoteId);
    const row = rows.get(item.remoteId);
    if (!row || row.svcId === null) {
      if (!item.active) plan.unchanged++;
      else if (row && row.failedHash === item.hash) plan.knownFailures.push(known(item, row, 'create'));
      else plan.creates.push(item);
      continue;
    }
    const step = stepFor(item, row, options);
    if (step === 'deactivate') plan.deactivations.push({ remoteId: item.remoteId, svcId: row.svcId });
    else if (step === 'known') plan.knownFailures.push(known(item, row, 'update'));
    else if (step) plan.changes.push(step);
    else plan.unchanged++;
  }
  // Only rows with a svc_id are deactivated: by docs/platform.md F41 those are items the mirror
  // uploaded or adopted itself under the same remote id (upload-answer.ts); anyone else's are absent.
  for (const row of rows.values()) {
    if (seen.has(row.remoteId) || row.svcId === null || !row.isActive) continue;
    plan.deactivations.push({ remoteId: row.remoteId, svcId: row.svcId });
  }
  return plan;
}

/** What brings one mirrored item to the ERP's state: a change, a deactivation, or nothing. */
export function stepFor(
  item: DesiredItem,
  row: Pick<MappedRow, 'svcId' | 'hash' | 'isActive' | 'visibility' | 'failedHash'>,
  options: DiffOptions,
): Change | 'deactivate' | 'known' | null {
  if (row.svcId === null) return null;
  if (!item.active) return row.isActive ? 'deactivate' : null;
  const content = row.hash !== item.hash;
  if (content && row.failedHash === item.hash) return 'known';
  const reactivate = !row.isActive;
  const wanted: Visibility = options.visibility && item.hidden ? 'HIDDEN' : 'VISIBLE';
  const visibility = options.visibility && row.visibility !== wanted ? wanted : null;
  if (!content && !reactivate && !visibility) return null;
  return { item, svcId: row.svcId, content, reactivate, visibility };
}

/** The row an item has once the platform holds it as `remote` (after an upload or adoption). */
export function rowOf(remote: RemoteItem): MappedRow {
  return {
    remoteId: remote.remoteId,
    svcId: remote.svcId,
    hash: remote.hash,
    isActive: remote.isActive,
    visibility: remote.visibility,
    failedHash: null,
    lastError: null,
  };
}

/** The PATCH body of a change (F12: name/code/..., reactivate: true, visibility). */
export function patchBody(change: Change): Record<string, unknown> {
  return {
    ...(change.content ? change.item.patch : {}),
    ...(change.reactivate ? { reactivate: true } : {}),
    ...(change.visibility ? { visibility: change.visibility } : {}),
  };
}

function known(item: DesiredItem, row: MappedRow, action: 'create' | 'update'): KnownFailure {
  return {
    remoteId: item.remoteId,
    action,
    reason: `${row.lastError ?? 'refused by the platform'} (unchanged in the ERP since; not sent again)`,
  };
}
