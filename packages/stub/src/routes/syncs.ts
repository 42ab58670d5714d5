import { CodingResponse, ReadyToSyncRequest, SyncResponse } from '../../../../src/platform/schemas/syncs.ts';
import { makeReady } from '../actions.ts';
import { ApiError } from '../core/errors.ts';
import type { RouteContext, RouteDef } from '../core/route.ts';
import { type ResolvedCoding, resolveCodings, resolvePlatformCodings } from '../rules/codings.ts';
import { applySync, checkSyncBody } from '../rules/sync-marking.ts';
import { CodingBody, ExternalCodingBody, PlatformCodingBody, SyncBody } from '../schemas/requests.ts';
import type { ConnectionRecord } from '../world/connections.ts';
import { S_SYNCED } from '../world/object-store.ts';
import { body, created, noContent, ok } from './helpers.ts';

/**
 * Sync marking (docs/platform.md F14, F15; F33: the published `{sync_id}` answer when the stub is
 * configured so, and the published sync types), codings (F18, and the F35 body by platform ids)
 * and ready-to-sync (F19).
 */

function apiConnection(ctx: RouteContext, what: string): ConnectionRecord {
  const connection = ctx.state.connections.resolve(undefined);
  // docs/platform.md G25: a DIRECT connection blocks sync marking and writes by API (DEVELOPER_7089).
  ctx.state.connections.assertWritable(connection, what);
  return connection;
}

export const syncRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/accounting/syncs',
    scope: 'accounting:write',
    tag: 'sync',
    summary:
      'Mark objects synced or failed (F14); idempotent by key (F15); `{sync_id}` only with published_answers (F33)',
    request: SyncBody,
    response: SyncResponse,
    status: 201,
    handler(ctx) {
      const input = body(ctx, SyncBody);
      const replay = ctx.state.idempotency.lookup(
        input.idempotency_key,
        ctx.body,
        ctx.state.faults.replayMode,
      );
      if (replay) return { status: replay.status, body: replay.body };
      apiConnection(ctx, 'sync marking');
      checkSyncBody(ctx.state, input);
      const full = applySync(ctx.state, input, ctx.state.nextSyncId());
      // F33: the published reference answers `{sync_id}` alone; a replay repeats what was answered.
      const response = ctx.state.config.publishedAnswers ? { sync_id: full.sync_id } : full;
      ctx.state.idempotency.remember(input.idempotency_key, ctx.body, 201, response);
      return created(response);
    },
  },
  {
    method: 'POST',
    path: '/accounting/codings',
    scope: 'accounting:write',
    tag: 'sync',
    summary:
      'Code an object (F18: `Merchant` = accounting vendor, `Category` = GL account; F35: accounting_coding_selections by svc_id)',
    request: CodingBody,
    response: CodingResponse,
    handler(ctx) {
      // F35: the body by platform ids when it carries accounting_coding_selections, else F18's.
      const platformIds =
        typeof ctx.body === 'object' && ctx.body !== null && 'accounting_coding_selections' in ctx.body;
      const input = platformIds ? body(ctx, PlatformCodingBody) : body(ctx, ExternalCodingBody);
      const kind = input.object_type === 'TRANSACTION' ? 'transaction' : 'reimbursement';
      const index = ctx.state.requireIndex(kind, input.object_id);
      const connection = apiConnection(ctx, 'coding');
      const store = ctx.state.world.stores[kind];
      if (store.statusOf(index) === S_SYNCED) {
        throw new ApiError('DEVELOPER_7001', `${kind} ${input.object_id} is already synced`, {
          id: input.object_id,
        });
      }
      const selections: ResolvedCoding[] =
        'accounting_coding_selections' in input
          ? resolvePlatformCodings(connection, input.accounting_coding_selections)
          : resolveCodings(connection, input.accounting_field_selections);
      const extras = store.extrasOf(index);
      extras.codings ??= new Map();
      for (const s of selections) extras.codings.set(s.field, s.selection);
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
