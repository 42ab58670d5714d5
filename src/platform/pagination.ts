import type { z } from 'zod';
import { followCursor, pagingFaultText } from '../page-guard.ts';
import { UnexpectedResponseError } from './errors.ts';
import type { PlatformRequest, PlatformResponse, QueryParams } from './http-transport.ts';
import { type ItemResult, parseItems } from './parse.ts';
import { PAGE_SIZE_MAX } from './schemas/common.ts';

/** One page as read: its items (each parsed on its own) and the link to the next page. */
export interface ItemPage<T> {
  items: ItemResult<T>[];
  /** page.next as the platform gave it; null on the last page. Save it to resume later. */
  next: string | null;
  traceId: string | null;
}

/** A page to read: the request, and the trace id of the answer whose page.next it follows. */
interface Onward {
  request: PlatformRequest;
  traceId: string | null;
}

export interface ListingSource<T> {
  send: (request: PlatformRequest) => Promise<PlatformResponse>;
  path: string;
  query: QueryParams;
  item: z.ZodType<T>;
  /** Names the item in per-item failure messages ("transaction", "GL account"). */
  what: string;
}

/**
 * A list endpoint read page by page (docs/platform.md F4): 100 items a page unless the query says
 * otherwise, following page.next exactly as given, one page at a time (a cursor is sequential;
 * see readSlices for reading disjoint slices side by side).
 *   for await (const item of listing) ...          items, each { ok, value } or { ok: false, ... }
 *   for await (const page of listing.pages()) ...  pages, with page.next for resuming
 */
export class Listing<T> implements AsyncIterable<ItemResult<T>> {
  constructor(private readonly source: ListingSource<T>) {}

  /**
   * Pages from the first one, or from a page.next link saved earlier. A list whose page.next does
   * not move on (a link already followed, a page that repeats an earlier one, empty pages that
   * point onward without end) ends with an error for this list alone (F43; src/page-guard.ts).
   */
  async *pages(options: { resumeFrom?: string } = {}): AsyncGenerator<ItemPage<T>> {
    const { send, path, query, item, what } = this.source;
    const first: Onward = options.resumeFrom
      ? { request: { method: 'GET', path: options.resumeFrom }, traceId: null }
      : { request: { method: 'GET', path, query: { page_size: PAGE_SIZE_MAX, ...query } }, traceId: null };
    yield* followCursor<Onward, ItemPage<T>>({
      first,
      async read({ request }) {
        const response = await send(request);
        const page = readEnvelope(response, request.path);
        return {
          page: { items: parseItems(item, page.data, what), next: page.next, traceId: response.traceId },
          items: page.data,
          next: page.next ? { request: { method: 'GET', path: page.next }, traceId: response.traceId } : null,
        };
      },
      keyOf: (onward) => pageKey(onward, path),
      broken: (fault, at) =>
        new UnexpectedResponseError({
          status: null,
          code: null,
          message: `${pagingFaultText(fault)}; the rest of the list could not be read (F43)`,
          traceId: at.traceId,
          retryable: false,
          method: 'GET',
          path,
        }),
    });
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ItemResult<T>> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item, split into parsed values and per-item failures. */
  async collect(): Promise<{ values: T[]; failures: Array<{ id: string | null; error: string }> }> {
    const values: T[] = [];
    const failures: Array<{ id: string | null; error: string }> = [];
    for await (const result of this) {
      if (result.ok) values.push(result.value);
      else failures.push({ id: result.id, error: result.error });
    }
    return { values, failures };
  }
}

/**
 * The page a request names within the list at `listPath`: the list's path and its query, sorted
 * (the first page is asked by path and query, every later one by the full URL page.next gave).
 *
 * docs/platform.md F43: a page.next that leads to another path is not the next page of this list
 * (reading on would mix another list's objects into this one). The read ends there with an error
 * for this list alone, after the page in hand was handed on: its items are good and are kept.
 */
function pageKey({ request, traceId }: Onward, listPath: string): string {
  let url: URL;
  try {
    url = new URL(request.path, 'http://relative.invalid');
  } catch {
    url = new URL('http://relative.invalid/');
  }
  const pathname = url.pathname.replace(/\/+$/, '');
  if (request.path !== listPath && !pathname.endsWith(listPath)) {
    throw new UnexpectedResponseError({
      status: null,
      code: null,
      message: `page.next leads away from ${listPath} (to ${pathname || 'an unreadable link'}); the rest of the list could not be read (F43)`,
      traceId,
      retryable: false,
      method: 'GET',
      path: listPath,
    });
  }
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const one of value) url.searchParams.append(name, String(one));
    else url.searchParams.set(name, String(value));
  }
  url.searchParams.sort();
  return `${listPath}?${url.searchParams.toString()}`;
}

function readEnvelope(response: PlatformResponse, path: string): { data: unknown[]; next: string | null } {
  const body = response.body as { data?: unknown; page?: { next?: unknown } } | null;
  const next = body?.page?.next;
  if (
    !body ||
    !Array.isArray(body.data) ||
    (next !== null && next !== undefined && typeof next !== 'string')
  ) {
    throw new UnexpectedResponseError({
      status: response.status,
      code: null,
      message: 'expected a page {data: [...], page: {next}} (F4)',
      traceId: response.traceId,
      retryable: false,
      method: 'GET',
      path,
    });
  }
  return { data: body.data, next: typeof next === 'string' && next.length > 0 ? next : null };
}
