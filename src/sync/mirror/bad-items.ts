/**
 * Reads which items of a refused batch the platform's 422 names (docs/platform.md F2: additional_info
 * "names the fields"). Shapes understood, all seen in the stub or the F2 description:
 *   items: [{index, id?, list?, reason?|message?}]  the bad items of a batch body
 *   fields: ["options.3.value"], errors: [{field, message}], issues: [{path, message}]
 *   ids / remote_ids / invalid_ids / rejected_ids: ["opt-17"]  remote ids
 * Pure: the batch's remote ids in body order in, positions and reasons out.
 */
export type Naming =
  /** These positions are bad (with the platform's reason when it gave one per item). */
  | { kind: 'items'; bad: Map<number, string | null> }
  /** The error is about the request, not an item (e.g. field_id): halving would not help. */
  | { kind: 'request' }
  /** Nothing usable: isolate by halving. */
  | { kind: 'unknown' };

const ID_LIST_KEYS = ['ids', 'remote_ids', 'invalid_ids', 'rejected_ids', 'bad_ids', 'rejected_remote_ids'];

export function namedBadItems(
  info: Record<string, unknown> | null,
  remoteIds: readonly string[],
  listKey: string,
): Naming {
  if (!info) return { kind: 'unknown' };
  const bad = new Map<number, string | null>();
  const position = new Map(remoteIds.map((id, i) => [id, i]));
  const add = (index: number | undefined, reason: string | null) => {
    if (index === undefined || index < 0 || index >= remoteIds.length) return;
    if (!bad.has(index) || (bad.get(index) === null && reason)) bad.set(index, reason);
  };

  for (const entry of arrayAt(info, 'items')) {
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as { id?: unknown; index?: unknown; list?: unknown; message?: unknown; reason?: unknown };
    if (typeof e.list === 'string' && e.list !== listKey) continue;
    const text = typeof e.reason === 'string' ? e.reason : e.message;
    const reason = typeof text === 'string' ? text : null;
    if (typeof e.id === 'string' && position.has(e.id)) add(position.get(e.id), reason);
    else if (typeof e.index === 'number') add(e.index, reason);
  }
  for (const key of ID_LIST_KEYS) {
    for (const id of arrayAt(info, key)) if (typeof id === 'string') add(position.get(id), null);
  }

  const paths = fieldPaths(info);
  let itemPaths = 0;
  for (const { path, message } of paths) {
    const index = itemIndexOf(path, listKey);
    if (index === null) continue;
    itemPaths++;
    add(index, message);
  }
  if (bad.size > 0) return { kind: 'items', bad };
  if (paths.length > 0 && itemPaths === 0) return { kind: 'request' };
  return { kind: 'unknown' };
}

/** "options.3.value" or "options[3].value" → 3, when it points into the batch list. */
export function itemIndexOf(path: string, listKey: string): number | null {
  const match = new RegExp(`^${escapeRegExp(listKey)}(?:\\.|\\[)(\\d+)`).exec(path);
  return match ? Number(match[1]) : null;
}

function fieldPaths(info: Record<string, unknown>): Array<{ path: string; message: string | null }> {
  const out: Array<{ path: string; message: string | null }> = [];
  // errors: the stub's [{field, message}]; issues: the client's own check [{path, message}].
  for (const error of [...arrayAt(info, 'errors'), ...arrayAt(info, 'issues')]) {
    const e = error as { field?: unknown; path?: unknown; message?: unknown } | null;
    const path = typeof e?.field === 'string' ? e.field : typeof e?.path === 'string' ? e.path : null;
    if (path !== null) out.push({ path, message: typeof e?.message === 'string' ? e.message : null });
  }
  if (out.length > 0) return out;
  for (const key of ['fields', 'field']) {
    const value = info[key];
    const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    for (const path of list) if (typeof path === 'string') out.push({ path, message: null });
  }
  return out;
}

function arrayAt(info: Record<string, unknown>, key: string): unknown[] {
  const value = info[key];
  return Array.isArray(value) ? value : [];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
