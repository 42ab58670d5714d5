import type { z } from 'zod';
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

  /** Pages from the first one, or from a page.next link saved earlier. */
  async *pages(options: { resumeFrom?: string } = {}): AsyncGenerator<ItemPage<T>> {
    const { send, path, query, item, what } = this.source;
    let request: PlatformRequest | null = options.resumeFrom
      ? { method: 'GET', path: options.resumeFrom }
      : { method: 'GET', path, query: { page_size: PAGE_SIZE_MAX, ...query } };
    while (request) {
      const response = await send(request);
      const page = readEnvelope(response, request.path);
      yield { items: parseItems(item, page.data, what), next: page.next, traceId: response.traceId };
      if (page.next) checkSameList(page.next, path, response.traceId);
      request = page.next ? { method: 'GET', path: page.next } : null;
    }
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
 * docs/platform.md F43: a page.next that leads to another path is not the next page of this list
 * (reading on would mix another list's objects into this one). The read ends here with an error
 * for this list alone, after the page in hand was handed on: its items are good and are kept.
 */
function checkSameList(next: string, listPath: string, traceId: string | null): void {
  let pathname: string;
  try {
    pathname = new URL(next, 'http://relative.invalid').pathname.replace(/\/+$/, '');
  } catch {
    pathname = '';
  }
  if (pathname.endsWith(listPath)) return;
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
