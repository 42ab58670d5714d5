import type { z } from 'zod';
import type { QueryParams } from '../http-transport.ts';
import type { Listing } from '../pagination.ts';
import { fetchOne, listing, type ResourceContext, segment } from './context.ts';

/**
 * One platform list of objects a sync exports, as the object-kind registry
 * (src/sync/objects/kinds.ts) declares it: where it is, how an item is read, and how its ready
 * objects are asked for (docs/platform.md F16).
 */
export interface ObjectList<T> {
  /** The list's path, e.g. `/transactions`. */
  path: string;
  item: z.ZodType<T>;
  /** The item's name in a message about an item that could not be read. */
  what: string;
  /** The filter that selects ready objects: sync_status=SYNC_READY, or sync_ready=true (bills). */
  ready: QueryParams;
  /** The list takes requested_to_sync=true, selecting the sync-button rows (F16, G28). */
  requestedToSync: boolean;
  /** The platform offers `GET {path}/{id}` for it (docs/platform.md G20). */
  singleRead: boolean;
}

/** Filters of a ready read; `requestedToSync` selects the sync-button objects (F16). */
export interface ReadyOptions {
  requestedToSync?: boolean;
  /** Date split (lists that honour it, F28). */
  from_date?: string;
  to_date?: string;
  page_size?: number;
}

/**
 * The objects a sync exports (docs/platform.md F16): ready ones are read with the list's ready
 * filter; sync-button reads add requested_to_sync=true; delta reads use synced_after
 * (transactions) or from_created_at (bills, docs/platform.md G11). Lists page by 100 (F4).
 */
export function readyObjectsResource(ctx: ResourceContext) {
  return {
    /** Any list of a kind, with the given query (a reconcile's synced objects, for one). */
    list<T>(list: ObjectList<T>, query: QueryParams = {}): Listing<T> {
      return listing(ctx, list.path, query, list.item, list.what);
    },

    /** F16: what is ready for the kind's sync types (sync-button reads: requestedToSync). */
    ready<T>(list: ObjectList<T>, options: ReadyOptions = {}): Listing<T> {
      const { requestedToSync, ...rest } = options;
      const button = requestedToSync && list.requestedToSync ? { requested_to_sync: true } : {};
      return listing(ctx, list.path, { ...rest, ...list.ready, ...button }, list.item, list.what);
    },

    /** A single read, e.g. to re-read an object a webhook named (docs/platform.md G12, G20). */
    one<T>(list: ObjectList<T>, id: string): Promise<T> {
      return fetchOne(ctx, { method: 'GET', path: `${list.path}/${segment(id)}` }, list.item);
    },
  };
}
