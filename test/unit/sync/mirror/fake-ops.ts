import { DuplicateUploadError, ValidationError } from '../../../../src/platform/index.ts';
import { contentHash } from '../../../../src/sync/mirror/content-hash.ts';
import type { DesiredItem, KindOps, RemoteItem } from '../../../../src/sync/mirror/model.ts';

/** An in-memory upload endpoint with the platform's batch rules (F12), for unit tests. */
export interface FakeOptions {
  /** Ids the "platform" refuses (422). */
  reject?: Iterable<string>;
  /** Whether the 422 names the bad items (additional_info.items). */
  names?: boolean;
  /** Items the platform already holds (insert-only: 7020). */
  held?: Iterable<string>;
  /** Name the duplicates in a 7020. */
  namesDuplicates?: boolean;
  /** Items someone else holds, named by every upload answer although not sent (F41). */
  foreign?: Iterable<string>;
  /** Created, but left out of the answer. */
  unanswered?: Iterable<string>;
  /** Answered 201, yet neither created nor named by the answer. */
  lost?: Iterable<string>;
}

export function fakeOps(options: FakeOptions = {}) {
  const reject = new Set(options.reject ?? []);
  const store = new Map<string, RemoteItem>();
  for (const id of options.held ?? []) store.set(id, remote(id));
  const foreign = [...(options.foreign ?? [])].map(remote);
  for (const r of foreign) store.set(r.remoteId, r);
  const unanswered = new Set(options.unanswered ?? []);
  const lost = new Set(options.lost ?? []);
  const calls = {
    upload: 0,
    list: 0,
    patch: [] as Array<[string, Record<string, unknown>]>,
    remove: [] as string[],
  };
  const ops: KindOps = {
    kind: 'field_option',
    listKey: 'options',
    batchSize: 500,
    visibility: true,
    check: (item) => (typeof item.value === 'string' && item.value.length > 0 ? null : 'value: Too small'),
    async upload(items) {
      calls.upload++;
      const ids = items.map((i) => String(i.id));
      const bad = ids.map((id, index) => ({ id, index })).filter((r) => reject.has(r.id));
      if (bad.length > 0) {
        throw new ValidationError({
          status: 422,
          code: 'DEVELOPER_7001',
          message: `options: ${bad.length} item(s) invalid`,
          traceId: null,
          retryable: false,
          additionalInfo: options.names
            ? { items: bad.map((b) => ({ ...b, reason: 'rejected by the platform' })) }
            : {},
        });
      }
      const dup = ids.filter((id) => store.has(id));
      if (dup.length > 0) {
        throw new DuplicateUploadError({
          status: 400,
          code: 'DEVELOPER_7020',
          message: 'remote id(s) already exist',
          traceId: null,
          retryable: false,
          additionalInfo: options.namesDuplicates === false ? {} : { duplicate_ids: dup },
        });
      }
      const created = ids.filter((id) => !lost.has(id)).map((id) => remote(id));
      for (const r of created) store.set(r.remoteId, r);
      const answered = created.filter((r) => !unanswered.has(r.remoteId));
      return { items: [...answered, ...foreign], unreadable: 0 };
    },
    async *list() {
      calls.list++;
      yield* store.values();
    },
    async patch(svcId, body) {
      calls.patch.push([svcId, body]);
    },
    async remove(svcId) {
      calls.remove.push(svcId);
    },
  };
  return { ops, calls, store };
}

function remote(id: string): RemoteItem {
  return {
    remoteId: id,
    svcId: `svc-${id}`,
    hash: contentHash({ value: id, code: '' }),
    isActive: true,
    visibility: 'VISIBLE',
  };
}

export function item(id: string, over: Partial<DesiredItem> = {}): DesiredItem {
  const body = { value: id, code: '' };
  return {
    remoteId: id,
    active: true,
    hidden: false,
    upload: { id, ...body },
    patch: body,
    hash: contentHash(body),
    ...over,
  };
}

export function items(count: number, prefix = 'opt'): DesiredItem[] {
  return Array.from({ length: count }, (_, i) => item(`${prefix}-${String(i).padStart(5, '0')}`));
}
