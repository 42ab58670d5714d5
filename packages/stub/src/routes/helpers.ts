import type { z } from 'zod';
import { API_PREFIX, type Page } from '../../../../src/platform/schemas/common.ts';
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
  return ok({ data, page: { next: cursor === null ? null : nextUrl(ctx, cursor) } } satisfies Page<T>);
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
  return `${ctx.origin}${API_PREFIX}${ctx.path}?${params.toString()}`;
}

export function parseTime(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw invalid(`${field} must be an ISO 8601 date or time`, { fields: [field] });
  return t;
}
