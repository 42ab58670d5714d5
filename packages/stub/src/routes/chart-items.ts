import type { z } from 'zod';
import { notFound } from '../core/errors.ts';
import type { RouteContext, RouteDef } from '../core/route.ts';
import { DeleteItemBody } from '../schemas/requests.ts';
import type { StubState } from '../state.ts';
import type { ConnectionChart, ItemTable, Keyed } from '../world/chart.ts';
import type { ConnectionRecord } from '../world/connections.ts';
import { body, noContent, ok, pageReply, query } from './helpers.ts';

/**
 * GET list / GET one / PATCH / DELETE for one kind of chart item (docs/platform.md F12,
 * G17): DELETE sets is_active false, PATCH reactivate reverses it, visibility HIDDEN
 * keeps the item active. Items are addressed by svc_id across connections; a PATCH or DELETE
 * body's `accounting_connection_id` confines the lookup to that connection (docs/platform.md
 * F29), and DELETE takes a JSON body like every write.
 */

export interface ListFilters {
  is_active?: 'true' | 'false';
  code?: string;
  visibility?: 'VISIBLE' | 'HIDDEN';
  start?: string;
  page_size: number;
  accounting_connection_id?: string;
  /** docs/platform.md F28: the item with this ERP id. */
  remote_id?: string;
  /** docs/platform.md F28: items the platform has (or has not) synced; uploaded items are. */
  is_synced?: 'true' | 'false';
}

export interface ItemKind<T extends Keyed> {
  path: string;
  noun: string;
  table: (chart: ConnectionChart) => ItemTable<T>;
  listQuery: z.ZodType<ListFilters>;
  /** The PATCH body (strict; carries `accounting_connection_id`, docs/platform.md F29). */
  patch: z.ZodType;
  /** Copies the patch onto the item; may refuse it (422) after checking it against the chart. */
  applyPatch: (item: T, patch: Record<string, unknown>, connection: ConnectionRecord) => void;
  response: z.ZodType;
}

export function findItem<T extends Keyed>(
  state: StubState,
  table: (chart: ConnectionChart) => { getBySvc(svcId: string): T | undefined },
  svcId: string,
  noun: string,
  connectionId?: string,
): { item: T; connection: ConnectionRecord } {
  // docs/platform.md F29: a write names its connection in the body; the item must be on it.
  if (connectionId !== undefined) {
    const connection = state.connections.resolve(connectionId);
    const item = table(connection.chart).getBySvc(svcId);
    if (!item) throw notFound(noun, svcId);
    return { item, connection };
  }
  const ordered = [...state.connections.list].sort((a, b) => Number(b.is_active) - Number(a.is_active));
  for (const connection of ordered) {
    const item = table(connection.chart).getBySvc(svcId);
    if (item) return { item, connection };
  }
  throw notFound(noun, svcId);
}

/**
 * Filters of docs/platform.md G16 (is_active, code, visibility; entity_id: all items) and F28
 * (remote_id, is_synced: an item without its own `is_synced` was uploaded, so it is synced).
 */
function keepItem(filters: ListFilters) {
  return (item: Keyed & { code?: string | null; visibility?: string; is_synced?: boolean }) =>
    (filters.is_active === undefined || String(item.is_active) === filters.is_active) &&
    (filters.code === undefined || (item.code ?? '') === filters.code) &&
    (filters.visibility === undefined || item.visibility === filters.visibility) &&
    (filters.remote_id === undefined || item.id === filters.remote_id) &&
    (filters.is_synced === undefined || String(item.is_synced ?? true) === filters.is_synced);
}

export function listItems<T extends Keyed>(ctx: RouteContext, table: ItemTable<T>, filters: ListFilters) {
  const { items, more } = table.page(filters.start, filters.page_size, keepItem(filters));
  return pageReply(ctx, items, more ? items[items.length - 1]!.id : null);
}

export function itemRoutes<T extends Keyed & { updated_at?: string }>(
  kind: ItemKind<T>,
  tag: string,
): RouteDef[] {
  return [
    {
      method: 'GET',
      path: kind.path,
      scope: 'accounting:read',
      tag,
      summary: `List ${kind.noun}s (F4 pages; filters is_active, code, accounting_connection_id)`,
      query: kind.listQuery,
      handler(ctx) {
        const filters = query(ctx, kind.listQuery);
        const connection = ctx.state.connections.resolve(filters.accounting_connection_id);
        return listItems(ctx, kind.table(connection.chart), filters);
      },
    },
    {
      method: 'GET',
      path: `${kind.path}/:id`,
      scope: 'accounting:read',
      tag,
      summary: `One ${kind.noun} by svc_id`,
      response: kind.response,
      handler(ctx) {
        return ok(findItem(ctx.state, kind.table, ctx.params.id!, kind.noun).item);
      },
    },
    {
      method: 'PATCH',
      path: `${kind.path}/:id`,
      scope: 'accounting:write',
      tag,
      summary: `Update a ${kind.noun} by svc_id (F12, F29, F30; accounting_connection_id in the body)`,
      request: kind.patch,
      response: kind.response,
      handler(ctx) {
        const patch = body(ctx, kind.patch) as Record<string, unknown>;
        const { item, connection } = findItem(
          ctx.state,
          kind.table,
          ctx.params.id!,
          kind.noun,
          patch.accounting_connection_id as string | undefined,
        );
        ctx.state.connections.assertWritable(connection, `${kind.noun} update`);
        kind.applyPatch(item, patch, connection);
        if (patch.reactivate === true) item.is_active = true;
        item.updated_at = ctx.state.clock.iso();
        return ok(item);
      },
    },
    {
      method: 'DELETE',
      path: `${kind.path}/:id`,
      scope: 'accounting:write',
      tag,
      summary: `Deactivate a ${kind.noun} (204; is_active false; JSON body, {} at least, F29)`,
      request: DeleteItemBody,
      handler(ctx) {
        const input = body(ctx, DeleteItemBody);
        const { item, connection } = findItem(
          ctx.state,
          kind.table,
          ctx.params.id!,
          kind.noun,
          input.accounting_connection_id,
        );
        ctx.state.connections.assertWritable(connection, `${kind.noun} delete`);
        item.is_active = false;
        item.updated_at = ctx.state.clock.iso();
        return noContent();
      },
    },
  ];
}

/** Copies the fields a PATCH may change when present; `code: ""` resets the code (F30). */
export function assignDefined(target: object, patch: Record<string, unknown>, keys: string[]): void {
  for (const key of keys) {
    const value = patch[key];
    if (value === undefined) continue;
    (target as Record<string, unknown>)[key] = key === 'code' && value === '' ? null : value;
  }
}
