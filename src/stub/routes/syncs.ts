import {
  CodingRequest,
  CodingResponse,
  ReadyToSyncRequest,
  SyncRequest,
  SyncResponse,
} from '../../platform/schemas/syncs.ts';
import { makeReady } from '../actions.ts';
import { ApiError } from '../core/errors.ts';
import type { RouteContext, RouteDef } from '../core/router.ts';
import { resolveCodings } from '../rules/codings.ts';
import { applySync, checkSyncBody } from '../rules/sync-marking.ts';
import type { ConnectionRecord } from '../world/connections.ts';
import { S_SYNCED } from '../world/object-store.ts';
import { body, created, noContent, ok } from './helpers.ts';

/** Sync marking (PLATFORM-FACTS F14, F15), codings (F18) and ready-to-sync (F19). */

function apiConnection(ctx: RouteContext, what: string): ConnectionRecord {
  const connection = ctx.state.connections.resolve(undefined);
  // Spec 001 rule 1: a DIRECT connection blocks sync marking and writes by API (DEVELOPER_7089).
  ctx.state.connections.assertWritable(connection, what);
  return connection;
}

export const syncRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/accounting/syncs',
    scope: 'accounting:write',
    tag: 'sync',
    summary: 'Mark objects synced or failed (F14); idempotent by key (F15)',
    request: SyncRequest,
    response: SyncResponse,
    status: 201,
    handler(ctx) {
      const input = body(ctx, SyncRequest);
      const replay = ctx.state.idempotency.lookup(
        input.idempotency_key,
        ctx.body,
        ctx.state.faults.replayMode,
      );
      if (replay) return { status: replay.status, body: replay.body };
      apiConnection(ctx, 'sync marking');
      checkSyncBody(ctx.state, input);
      const response = applySync(ctx.state, input, ctx.state.nextSyncId());
      ctx.state.idempotency.remember(input.idempotency_key, ctx.body, 201, response);
      return created(response);
    },
  },
  {
    method: 'POST',
    path: '/accounting/codings',
    scope: 'accounting:write',
    tag: 'sync',
    summary: 'Code an object (F18: `Merchant` = accounting vendor, `Category` = GL account)',
    request: CodingRequest,
    response: CodingResponse,
    handler(ctx) {
      const input = body(ctx, CodingRequest);
      const kind = input.object_type === 'TRANSACTION' ? 'transaction' : 'reimbursement';
      const index = ctx.state.requireIndex(kind, input.object_id);
      const connection = apiConnection(ctx, 'coding');
      const store = ctx.state.world.stores[kind];
      if (store.statusOf(index) === S_SYNCED) {
        throw new ApiError('DEVELOPER_7001', `${kind} ${input.object_id} is already synced`, {
          id: input.object_id,
        });
      }
      const selections = resolveCodings(connection.chart, input.accounting_field_selections);
      const extras = store.extrasOf(index);
      extras.codings ??= new Map();
      for (const s of selections) extras.codings.set(s.category_info.external_id, s);
      extras.codedAt = ctx.state.now();
      if (kind === 'transaction')
        ctx.state.webhooks.emit('transactions.body_coding_updated', { id: input.object_id });
      return ok(ctx.state.objectJson(kind, index));
    },
  },
  {
    method: 'POST',
    path: '/accounting/ready-to-sync',
    scope: 'accounting:write',
    tag: 'sync',
    summary: 'Mark objects ready to sync (F19; 1..500 ids)',
    request: ReadyToSyncRequest,
    handler(ctx) {
      const input = body(ctx, ReadyToSyncRequest);
      makeReady(
        ctx.state,
        input.object_type === 'TRANSACTION' ? 'transaction' : 'reimbursement',
        input.object_ids,
      );
      return noContent();
    },
  },
];
