import { notFound } from '../core/errors.ts';
import { OBJECT_KINDS } from '../core/ids.ts';
import type { RouteDef } from '../core/route.ts';
import { syncRequestJson } from '../rules/sync-window.ts';
import { connectionJson } from '../world/connections.ts';
import { kindParam } from './control-world.ts';
import { ok } from './helpers.ts';

/** Control routes that let tests see what happened (packages/stub/README.md). */

const MAX_ROWS = 100_000;

function intParam(value: string | undefined, fallback: number): number {
  const n = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;
}

export const controlObserveRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/__stub/effects',
    scope: null,
    summary: 'Arrivals and sync marks since a sequence number; summary=true adds the proofs',
    handler(ctx) {
      const { effects, rateLimiter } = ctx.state;
      const q = ctx.query;
      const limit = Math.min(MAX_ROWS, intParam(q.limit, 10_000));
      const include = (q.include ?? 'arrivals,marks').split(',');
      const out: Record<string, unknown> = {
        totals: { arrivals: effects.arrivalCount, marks: effects.markCount },
      };
      const next: Record<string, number> = {};
      if (include.includes('arrivals')) {
        const from = intParam(q.arrivals_since ?? q.since, 0);
        const to = Math.min(effects.arrivalCount, from + limit);
        const rows = [];
        for (let s = from; s < to; s++) rows.push(effects.arrivalRow(s));
        out.arrivals = q.route ? rows.filter((r) => r.route === q.route) : rows;
        next.arrivals_since = to;
      }
      if (include.includes('marks')) {
        const from = intParam(q.marks_since ?? q.since, 0);
        const to = Math.min(effects.markCount, from + limit);
        const rows = [];
        for (let s = from; s < to; s++) rows.push(effects.markRow(s));
        out.marks = q.object_id ? rows.filter((r) => r.object_id === q.object_id) : rows;
        next.marks_since = to;
      }
      out.next = next;
      if (q.summary === 'true') {
        const limitConfig = rateLimiter.current;
        const windowMs = intParam(q.window_ms, limitConfig ? limitConfig.windowMs : 10_000);
        out.summary = {
          window_ms: windowMs,
          max_admitted_in_window: effects.maxInWindow(windowMs),
          synced_more_than_once: effects.syncedMoreThanOnce(),
        };
      }
      return ok(out);
    },
  },
  {
    method: 'GET',
    path: '/__stub/objects/:type/:id',
    scope: null,
    summary: 'Full state of one object: the object, status, flags, sync history, failure messages',
    handler(ctx) {
      const kind = kindParam(ctx.params.type);
      const index = ctx.state.requireIndex(kind, ctx.params.id!);
      const store = ctx.state.world.stores[kind];
      const extras = store.peekExtras(index);
      return ok({
        object: ctx.state.objectJson(kind, index),
        state: {
          sync_status: store.statusName(index),
          sync_ready: store.ready.has(index),
          requested_to_sync: store.isRequested(index),
          paid: kind === 'bill' ? store.isPaid(index) : undefined,
          sync_request_id: extras?.syncRequestId ?? null,
          codings: extras?.codings ? [...extras.codings.values()] : [],
          failures: extras?.failures ?? [],
          syncs: extras?.syncs ?? [],
          overrides: extras?.overrides ?? null,
        },
        marks: ctx.state.effects.marksOf(kind, index),
      });
    },
  },
  {
    method: 'GET',
    path: '/__stub/chart',
    scope: null,
    summary: 'Everything uploaded to a connection (default: the active one)',
    handler(ctx) {
      const connection = ctx.state.connections.resolve(ctx.query.accounting_connection_id);
      return ok({
        accounting_connection_id: connection.id,
        connection: connectionJson(connection),
        counts: connection.chart.counts(),
        ...connection.chart.toJson(),
      });
    },
  },
  {
    method: 'GET',
    path: '/__stub/webhooks',
    scope: null,
    summary: 'Subscriptions (with secrets), emitted events and delivery attempts',
    handler(ctx) {
      const hub = ctx.state.webhooks;
      return ok({
        subscriptions: [...hub.subscriptions.values()].map(({ challenge: _c, ...s }) => s),
        events: hub.events,
        deliveries: hub.deliveries,
        pending: hub.pending,
      });
    },
  },
  {
    method: 'GET',
    path: '/__stub/sync-requests',
    scope: null,
    summary: 'Sync-button requests with their deadlines',
    handler(ctx) {
      const idOf = ctx.state.world.idOf.bind(ctx.state.world);
      return ok({ sync_requests: ctx.state.syncRequests.all().map((r) => syncRequestJson(r, idOf)) });
    },
  },
  {
    method: 'GET',
    path: '/__stub/sync-requests/:id',
    scope: null,
    summary: 'One sync-button request',
    handler(ctx) {
      const r = ctx.state.syncRequests.get(ctx.params.id!);
      if (!r) throw notFound('sync request', ctx.params.id);
      return ok(syncRequestJson(r, ctx.state.world.idOf.bind(ctx.state.world)));
    },
  },
  {
    method: 'GET',
    path: '/__stub/health',
    scope: null,
    summary: 'Liveness and world counts',
    handler(ctx) {
      const counts = Object.fromEntries(OBJECT_KINDS.map((k) => [k, ctx.state.world.stores[k].count]));
      return ok({ ok: true, now: ctx.state.clock.iso(), counts });
    },
  },
];
