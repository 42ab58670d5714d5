import { z } from 'zod';
import {
  ConnectionSettingsInput,
  ConnectionType,
  SETTING_NAMES,
} from '../../../../src/platform/schemas/accounting.ts';
import { addObjects, makeReady, payBill, pressSyncButton } from '../actions.ts';
import { invalid } from '../core/errors.ts';
import { normalizeKind, OBJECT_KINDS, type ObjectKind } from '../core/ids.ts';
import type { RouteContext, RouteDef } from '../core/route.ts';
import { parseRequest } from '../core/validate.ts';
import { chartSnapshot, SeedRequest, seedWorld } from '../seed.ts';
import { connectionJson } from '../world/connections.ts';
import { created, ok } from './helpers.ts';

/** Control routes that change the world (packages/stub/README.md). Not rate limited, no token. */

const ClientRequest = z.strictObject({
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  scopes: z.union([z.array(z.string()), z.string()]).default([]),
  token_ttl_s: z.number().int().min(1).optional(),
});

const ConnectionRequest = z.strictObject({
  /** A sandbox reset keeps its connection: the same id again (unique among the stub's connections). */
  id: z.uuid().optional(),
  remote_provider_name: z.string().min(1).default('Stub ERP'),
  connection_type: ConnectionType.default('API'),
  is_active: z.boolean().default(true),
  settings: ConnectionSettingsInput.optional(),
});

const ObjectIdsRequest = z.strictObject({
  object_type: z.string().min(1),
  object_ids: z.array(z.string().min(1)).optional(),
  limit: z.number().int().min(1).max(100_000).optional(),
});

const AddObjectsRequest = z.strictObject({
  count: z.number().int().min(1).max(100_000),
  ready: z.boolean().default(true),
});

export function kindParam(value: string | undefined): ObjectKind {
  const kind = value ? normalizeKind(value) : null;
  if (!kind)
    throw invalid(`object type must be one of ${OBJECT_KINDS.join(', ')}`, { fields: ['object_type'] });
  return kind;
}

const input = <S extends z.ZodType>(ctx: RouteContext, schema: S): z.infer<S> =>
  parseRequest(schema, ctx.body ?? {});

function seed(ctx: RouteContext) {
  const request = input(ctx, SeedRequest);
  const { state } = ctx;
  if (request.connection) {
    const unknown = Object.keys(request.connection.settings ?? {}).filter(
      (k) => !SETTING_NAMES.includes(k as never),
    );
    if (unknown.length > 0)
      throw invalid(`unknown settings: ${unknown.join(', ')}`, { unknown_fields: unknown });
    const name = request.connection.remote_provider_name ?? 'Stub ERP';
    const { connection } = state.connections.create({ remote_provider_name: name }, state.clock.iso());
    Object.assign(connection.settings, request.connection.settings ?? {});
  }
  const chart = chartSnapshot(request.chart, state.connections.active()?.chart ?? null);
  const summary = seedWorld(state.world, request, chart);
  const ready = Object.fromEntries(OBJECT_KINDS.map((k) => [k, state.world.stores[k].ready.size]));
  return ok({ ...summary, ready, business_id: state.world.businessId });
}

export const controlWorldRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/__stub/reset',
    scope: null,
    summary: 'Empty platform (default client only)',
    handler(ctx) {
      ctx.state.reset();
      return ok({ reset: true });
    },
  },
  {
    method: 'POST',
    path: '/__stub/clients',
    scope: null,
    summary: 'Add an OAuth client with scopes and an optional token lifetime',
    handler(ctx) {
      const c = input(ctx, ClientRequest);
      const scopes = typeof c.scopes === 'string' ? c.scopes.split(/\s+/).filter(Boolean) : c.scopes;
      ctx.state.auth.addClient(c.client_id, c.client_secret, scopes, c.token_ttl_s);
      return created({ client_id: c.client_id, scopes, token_ttl_s: c.token_ttl_s ?? 864_000 });
    },
  },
  {
    method: 'POST',
    path: '/__stub/connections',
    scope: null,
    summary: 'Create a connection of any type (DIRECT, CSV, API); an active one replaces the incumbent',
    handler(ctx) {
      const c = input(ctx, ConnectionRequest);
      const { connection } = ctx.state.connections.create(c, ctx.state.clock.iso(), true);
      return created(connectionJson(connection));
    },
  },
  {
    method: 'POST',
    path: '/__stub/connections/:id/switch',
    scope: null,
    summary: 'The customer confirms the migration in the UI: the ready connection becomes active',
    handler: (ctx) =>
      ok(connectionJson(ctx.state.connections.switchTo(ctx.params.id!, ctx.state.clock.iso()))),
  },
  {
    method: 'DELETE',
    path: '/__stub/webhooks',
    scope: null,
    summary: 'Forget every webhook subscription, as a restarted stub does (the world stays)',
    handler: (ctx) => ok({ forgotten: ctx.state.webhooks.forgetSubscriptions() }),
  },
  {
    method: 'POST',
    path: '/__stub/seed',
    scope: null,
    summary: 'Generate a world from a seed',
    handler: seed,
  },
  {
    method: 'POST',
    path: '/__stub/objects/:type',
    scope: null,
    summary: 'Append new generated objects (ready by default) and announce them by webhook',
    handler(ctx) {
      const c = input(ctx, AddObjectsRequest);
      return created({ ids: addObjects(ctx.state, kindParam(ctx.params.type), c.count, c.ready) });
    },
  },
  {
    method: 'PATCH',
    path: '/__stub/objects/:type/:id',
    scope: null,
    summary: 'Override fields of a generated object (merged over it on every read)',
    handler(ctx) {
      const kind = kindParam(ctx.params.type);
      const index = ctx.state.requireIndex(kind, ctx.params.id!);
      const patch = ctx.body;
      if (!patch || typeof patch !== 'object' || Array.isArray(patch))
        throw invalid('body must be an object');
      const extras = ctx.state.world.stores[kind].extrasOf(index);
      extras.overrides = { ...extras.overrides, ...(patch as Record<string, unknown>) };
      return ok(ctx.state.objectJson(kind, index));
    },
  },
  {
    method: 'POST',
    path: '/__stub/ready',
    scope: null,
    summary: 'Make objects ready to sync (emits *.ready_to_sync)',
    handler(ctx) {
      const c = input(ctx, ObjectIdsRequest);
      return ok({ changed: makeReady(ctx.state, kindParam(c.object_type), c.object_ids ?? []) });
    },
  },
  {
    method: 'POST',
    path: '/__stub/sync-button',
    scope: null,
    summary: 'Press the sync button (requested_to_sync rows, *.sync_requested webhook)',
    handler(ctx) {
      const c = input(ctx, ObjectIdsRequest);
      return created(pressSyncButton(ctx.state, kindParam(c.object_type), c.object_ids, c.limit));
    },
  },
  {
    method: 'POST',
    path: '/__stub/bills/:id/pay',
    scope: null,
    summary: 'A bill payment clears: OPEN → PAID (bills.paid)',
    handler: (ctx) => ok(payBill(ctx.state, ctx.params.id!)),
  },
];
