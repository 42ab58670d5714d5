import type { Sql } from 'postgres';
import type { ReadPage } from '../objects/index.ts';
import { advanceReadCursor } from './requests.ts';

/**
 * The pages of a read of a press's requested rows, moving the press's read cursor
 * (requests.ts ReadCursor) as each one arrives, before it is handed on: the watchdog then knows
 * how far the reads got while the page is still being written, and takes the reading up from
 * there instead of reading it all again. `from` is the pages the cursor had read where this
 * read began (0: the first page). Where the port gives no page links, only the list's end moves it.
 */
export async function* movingReadCursor(
  sql: Sql,
  syncRequestId: string,
  pages: AsyncIterable<ReadPage>,
  from = 0,
): AsyncGenerator<ReadPage> {
  let read = from;
  for await (const page of pages) {
    read++;
    const next = page.next !== undefined ? page.next : page.more === false ? null : undefined;
    if (next !== undefined) await advanceReadCursor(sql, syncRequestId, { pages: read, next });
    yield page;
  }
  // The list ended here (a port that gives no links, or no page at all, says so only now).
  await advanceReadCursor(sql, syncRequestId, { pages: read, next: null });
}
