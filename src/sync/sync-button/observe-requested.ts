import type { Sql } from 'postgres';
import type { ReadPage, SyncPlatform } from '../objects/platform-port.ts';
import { pageObjectIds } from './adopting-platform.ts';
import { type AttributionScope, databaseTime, recordRequestedRead } from './attribute-rows.ts';
import { BUTTON_OBJECTS } from './window.ts';

export interface ObserveDeps {
  sql: Sql;
  syncPlatform: SyncPlatform;
}

export interface ObservedRows {
  /** The pages as read, when asked to keep them (a run answers from them). */
  pages: ReadPage[];
  /** Every requested row the read listed, whichever request it belongs to. */
  objectIds: string[];
}

/**
 * Reads every requested row of the kind (requested_to_sync=true, docs/platform.md F16) in one
 * pass and records the read, so each row is attributed to its request (attribute-rows.ts). The
 * read is timed by the database's clock, the clock results are frozen and acknowledged by.
 */
export async function observeRequested(
  deps: ObserveDeps,
  scope: AttributionScope,
  options: { keepPages: boolean },
): Promise<ObservedRows> {
  const kind = BUTTON_OBJECTS[scope.objectType].kind;
  const pages: ReadPage[] = [];
  const objectIds: string[] = [];
  const startedAt = await databaseTime(deps.sql);
  for await (const page of deps.syncPlatform.readyPages(kind, { requestedToSync: true, slices: 1 })) {
    objectIds.push(...pageObjectIds(page));
    if (options.keepPages) pages.push(page);
  }
  const finishedAt = await databaseTime(deps.sql);
  await recordRequestedRead(deps.sql, scope, { objectIds, startedAt, finishedAt });
  return { pages, objectIds };
}
