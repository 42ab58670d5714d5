import type { z } from 'zod';
import { API_PREFIX, PAGE_SIZE_MIN, type Page } from '../../../../src/platform/schemas/common.ts';
import { invalid } from '../core/errors.ts';
import type { Reply, RouteContext } from '../core/route.ts';
import { parseRequest } from '../core/validate.ts';

/** Small helpers shared by the platform route files. */

export function body<S extends z.ZodType>(ctx: RouteContext, schema: S): z.infer<S> {
  return parseRequest(schema, ctx.body ?? {}, 'body');
}

export function query<S extends z.ZodType>(ctx: RouteContext, schema: S): z.infer<S> {
  return parseRequest(schema, ctx.query, 'query');
}

export const ok = (body: unknown, status = 200): Reply => ({ status, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });

/**
 * F4 envelope. `page.next` is the full URL of the next page: the same query with `start` set to
 * the id of the last item (the cursor), or null on the last page.
 */
export function pageReply<T>(ctx: RouteContext, data: T[], cursor: string | null): Reply {
  const page = (items: T[], next: string | null): Reply =>
    ok({ data: items, page: { next } } satisfies Page<T>);
  const broken = ctx.state.faults.config.page_links[ctx.path];
  // Injected faults (docs/platform.md F43): a cursor that does not move.
  if (broken === 'self') return page(data, listUrl(ctx, new URLSearchParams(ctx.query)));
  if (broken === 'empty_onward') {
    const run = Number(ctx.query[EMPTY_RUN] ?? 0) || 0;
    if (run > 0 || cursor === null) {
      const params = new URLSearchParams(ctx.query);
      params.set(EMPTY_RUN, String(run + 1));
      return page(run > 0 ? [] : data, listUrl(ctx, params));
    }
  }
  return page(data, cursor === null ? null : nextUrl(ctx, cursor));
}

/** Counts the empty pages of an `empty_onward` fault; a parameter no list reads (they strip it). */
const EMPTY_RUN = 'stub_empty_run';

function listUrl(ctx: RouteContext, params: URLSearchParams): string {
  return `${ctx.origin}${API_PREFIX}${ctx.path}?${params.toString()}`;
}

function nextUrl(ctx: RouteContext, cursor: string): string {
  const params = new URLSearchParams(ctx.query);
  params.set('start', cursor);
  const broken = ctx.state.faults.config.page_links[ctx.path];
  // Injected faults (docs/platform.md F43): a link to nowhere, or to another list's first page.
  if (broken === 'gone') return `${ctx.origin}${API_PREFIX}${ctx.path}/gone-page?${params.toString()}`;
  if (broken === 'other_list') {
    const other = ctx.path === '/transfers' ? '/cashbacks' : '/transfers';
    return `${ctx.origin}${API_PREFIX}${other}?page_size=${params.get('page_size') ?? '20'}`;
  }
  return listUrl(ctx, params);
}

/** Marks the link of an `empty_probe_pages` fault's empty page; a parameter no list reads. */
const AFTER_EMPTY_PROBE = 'stub_after_empty_probe';

/**
 * Injected fault `empty_probe_pages`: a date probe of the list (a first page asked with
 * `from_date` and the fewest items a page may hold, F4) answers an empty page whose `page.next`
 * leads to the page it held (the same query, marked so that it is answered in full). Null when
 * the fault does not apply to this request.
 */
export function emptyProbePage(ctx: RouteContext): Reply | null {
  const q = ctx.query;
  if (!ctx.state.faults.config.empty_probe_pages.includes(ctx.path)) return null;
  if (q.start !== undefined || q.from_date === undefined || q[AFTER_EMPTY_PROBE] !== undefined) return null;
  if (Number(q.page_size) !== PAGE_SIZE_MIN) return null;
  const params = new URLSearchParams(q);
  params.set(AFTER_EMPTY_PROBE, '1');
  return ok({ data: [], page: { next: listUrl(ctx, params) } });
}

export function parseTime(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw invalid(`${field} must be an ISO 8601 date or time`, { fields: [field] });
  return t;
}
