import type { Sql } from 'postgres';
import type { ReadPage, SyncPlatform } from '../objects/index.ts';
import { pageObjectIds } from './adopting-platform.ts';
import {
  type AttributionScope,
  databaseTime,
  endRequestedRead,
  recordRequestedPage,
} from './attribute-rows.ts';
import { timedPages } from './platform-latency.ts';
import { BUTTON_OBJECTS } from './window.ts';

export interface ObserveDeps {
  sql: Sql;
  syncPlatform: SyncPlatform;
}

/**
 * Reads every requested row of the kind (requested_to_sync=true, docs/platform.md F16) in one
 * pass, handing on each page only once it is recorded and its rows attributed (attribute-rows.ts
 * recordRequestedPage), so the consumer can answer it before the next page is read. The read is
 * ended (rows it did not list end their streaks) only when the consumer took every page: a read
 * cut short says nothing of the rows it did not reach. Timed by the database's clock, the clock
 * results are frozen and acknowledged by; each page's latency is recorded for the watchdog.
 */
export async function* readRequested(deps: ObserveDeps, scope: AttributionScope): AsyncGenerator<ReadPage> {
  const kind = BUTTON_OBJECTS[scope.objectType].kind;
  const objectIds: string[] = [];
  const startedAt = await databaseTime(deps.sql);
  const pages = deps.syncPlatform.readyPages(kind, { requestedToSync: true });
  for await (const page of timedPages(deps.sql, scope.connectionId, pages)) {
    const ids = pageObjectIds(page);
    objectIds.push(...ids);
    await recordRequestedPage(deps.sql, scope, {
      objectIds: ids,
      startedAt,
      seenBy: await databaseTime(deps.sql),
    });
    yield page;
  }
  await endRequestedRead(deps.sql, scope, { objectIds, startedAt, finishedAt: await databaseTime(deps.sql) });
}

/** One whole read of the requested rows, recorded as readRequested does; their ids. */
export async function observeRequested(deps: ObserveDeps, scope: AttributionScope): Promise<string[]> {
  const objectIds: string[] = [];
  for await (const page of readRequested(deps, scope)) objectIds.push(...pageObjectIds(page));
  return objectIds;
}
