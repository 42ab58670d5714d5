import type { ReadItem, ReadPage } from '../platform-port.ts';
import { prefetch } from '../prefetch.ts';

export interface WritePagesOptions {
  /** Pages read ahead of the writes. */
  readAhead: number;
  /**
   * The reads go first while the read-ahead fills: the first window of the rate limit admits a
   * burst, and every permit of it used early brings a long run's end forward (each later window
   * repeats the first one's timing).
   */
  fillFirst: boolean;
  /** Pages written at once. */
  concurrency: number;
  /** Asked before each page is written; true ends the reading there. */
  stopped?: () => boolean;
}

/**
 * The page loop every run shares: pages are read ahead and written as they come, several at
 * once. Pages are disjoint and every write is guarded by the sync ledger's claims and the ERP's
 * own idempotency, so the round trips of one page (claim, ERP write, outcome) overlap another's
 * instead of adding up.
 *
 * A list the platform stops serving part-way (a page link to nowhere, an error after the retries:
 * docs/platform.md F43) ends the reading, not the run: the pages already read are written, and
 * the read's error is returned for the run to report what it wrote before it fails. A page that
 * fails to write ends the reading and is thrown once the pages in flight are done.
 */
export async function writePages(
  pages: AsyncIterable<ReadPage>,
  options: WritePagesOptions,
  writePage: (items: ReadItem[]) => Promise<void>,
): Promise<{ readError: unknown }> {
  const inFlight = new Set<Promise<void>>();
  const concurrency = Math.max(1, options.concurrency);
  let pageError: unknown = null;
  let readError: unknown = null;
  try {
    for await (const page of prefetch(pages, options.readAhead, { fillFirst: options.fillFirst })) {
      if (pageError || options.stopped?.()) break;
      const task: Promise<void> = writePage(page.items)
        .catch((error) => {
          pageError ??= error;
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
  } catch (error) {
    readError = error;
  }
  await Promise.all(inFlight);
  if (pageError) throw pageError;
  return { readError };
}
