import { createHash } from 'node:crypto';

/**
 * One paging discipline for every cursor ledgersync follows: the platform's lists (page.next,
 * docs/platform.md F4, F43) and the HTTP ERP's chart streams (nextCursor, docs/erp-http.md). A
 * list whose cursor does not move ends with an error naming it, within a bounded number of pages
 * and in bounded memory, instead of looping for as long as the process runs. It ends when:
 *
 * - the cursor onward is one this list already followed (a self-link, a cycle);
 * - a page holds exactly the items of an earlier page (a cursor that is ignored: page 1 again,
 *   under a fresh cursor every time);
 * - `emptyRun` empty pages in a row still point onward (a list may answer an empty page with a
 *   next link, when its scan of a page found nothing, but not without end);
 * - it still points onward after `pages` pages, or `items` items. Neither the platform nor the
 *   HTTP ERP contract says how long a list is, so the caps are absolute and generous: 100,000
 *   pages is 10 million platform objects at 100 a page; a caller whose list is held in memory
 *   whole (the chart mirror) also caps the items.
 *
 * What the guard remembers is two 128-bit digests a page (its link and its items), so at most
 * twice `pages` small strings: memory stays bounded whatever the list answers.
 */
export interface PageLimits {
  /** Empty pages in a row that still point onward, at the last of which the list ends. */
  emptyRun: number;
  /** Pages one list may take; the list ends at the last of them if it still points onward. */
  pages: number;
  /** Items one list may hold (none: only the pages are capped); as `pages`. */
  items?: number;
}

export const PAGE_LIMITS: PageLimits = { emptyRun: 100, pages: 100_000 };

/** Why a list was ended, with the page (counted from 1) at which that became clear. */
export type PagingFault =
  | { rule: 'link-repeated'; page: number }
  | { rule: 'page-repeated'; page: number }
  | { rule: 'empty-run'; page: number; empty: number }
  | { rule: 'too-long'; page: number; items: number };

/** The fault in words, to follow the list's name: "GET /bills: page 3 repeats an earlier page…". */
export function pagingFaultText(fault: PagingFault): string {
  switch (fault.rule) {
    case 'link-repeated':
      return `the link onward from page ${fault.page} was already followed: the cursor does not move`;
    case 'page-repeated':
      return `page ${fault.page} repeats an earlier page: the cursor does not move`;
    case 'empty-run':
      return `${fault.empty} empty pages in a row still point onward (page ${fault.page})`;
    case 'too-long':
      return `still points onward after ${fault.page} pages (${fault.items} items), longer than a list may be`;
  }
}

/** A list read page by page, as the caller reads it; the guard decides when it must end. */
export interface CursorSource<C, P> {
  /** Where the list starts: its first page, or a saved cursor to resume from. */
  first: C;
  /**
   * One page: what to hand on, its items as the answer gave them (two pages with equal items are
   * the same page), and the cursor onward (null on the last page).
   */
  read(cursor: C): Promise<{ page: P; items: readonly unknown[]; next: C | null }>;
  /**
   * The page a cursor names, as a string equal for equal pages of this list. May throw when the
   * cursor cannot be a page of this list at all; it is called after the page before it was
   * handed on.
   */
  keyOf(cursor: C): string;
  /** The caller's error for a list that does not move; `at` is the cursor of the page concerned. */
  broken(fault: PagingFault, at: C): Error;
  limits?: PageLimits;
}

function digest(kind: 'link' | 'page', value: string): string {
  return `${kind[0]}${createHash('sha256').update(value).digest('base64').slice(0, 22)}`;
}

/**
 * Follows a list's cursor to its end, one page at a time, and hands on each page once. A page
 * that repeats an earlier one is not handed on (its items were); any other page is handed on
 * before the cursor beyond it is judged, so what a list gave before it went wrong is kept.
 */
export async function* followCursor<C, P>(source: CursorSource<C, P>): AsyncGenerator<P> {
  const limits = source.limits ?? PAGE_LIMITS;
  const seen = new Set<string>([digest('link', source.keyOf(source.first))]);
  let cursor = source.first;
  let page = 0;
  let items = 0;
  let emptyRun = 0;
  for (;;) {
    const read = await source.read(cursor);
    page++;
    items += read.items.length;
    if (read.items.length > 0) {
      const content = digest('page', JSON.stringify(read.items));
      if (seen.has(content)) throw source.broken({ rule: 'page-repeated', page }, cursor);
      seen.add(content);
      emptyRun = 0;
    } else emptyRun++;
    yield read.page;
    if (read.next === null) return;
    if (emptyRun >= limits.emptyRun)
      throw source.broken({ rule: 'empty-run', page, empty: emptyRun }, read.next);
    if (page >= limits.pages || items >= (limits.items ?? Number.POSITIVE_INFINITY))
      throw source.broken({ rule: 'too-long', page, items }, read.next);
    const link = digest('link', source.keyOf(read.next));
    if (seen.has(link)) throw source.broken({ rule: 'link-repeated', page }, read.next);
    seen.add(link);
    cursor = read.next;
  }
}
