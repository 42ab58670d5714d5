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
export async function* readRequested(
  deps: ObserveDeps,
  scope: AttributionScope,
  options: {
    /**
     * Go on from this page.next, where an earlier read stopped (requests.ts ReadCursor), instead
     * of the first page. Such a read lists only what follows, so it says nothing of the rows it
     * did not list and is never ended, as a read cut short.
     */
    resumeFrom?: string;
  } = {},
): AsyncGenerator<ReadPage> {
  const kind = BUTTON_OBJECTS[scope.objectType].kind;
  const objectIds: string[] = [];
  const startedAt = await databaseTime(deps.sql);
  const resume = options.resumeFrom === undefined ? {} : { resumeFrom: options.resumeFrom };
  const pages = deps.syncPlatform.readyPages(kind, { requestedToSync: true, ...resume });
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
  if (options.resumeFrom !== undefined) return;
  await endRequestedRead(deps.sql, scope, { objectIds, startedAt, finishedAt: await databaseTime(deps.sql) });
}
