import { z } from 'zod';
import {
  AccountingConnection,
  AllConnectionsResponse,
  CreateConnectionRequest,
  PatchConnectionRequest,
} from '../../../../src/platform/schemas/accounting.ts';
import { notFound } from '../core/errors.ts';
import type { RouteDef } from '../core/route.ts';
import { assertReadyToMigrate } from '../rules/migration.ts';
import { EmptyBody } from '../schemas/requests.ts';
import { connectionJson } from '../world/connections.ts';
import { body, created, noContent, ok } from './helpers.ts';

/**
 * Accounting connection (docs/platform.md F6, F7; the platform guide's "Accounting connection"
 * and migration; F31 reactivate). Every write takes a JSON body, `{}` at least (F29).
 */
const R = 'accounting:read';
const W = 'accounting:write';

export const connectionRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/accounting/connection',
    scope: W,
    tag: 'connection',
    summary: 'Create a connection; an active one while one is active returns the incumbent (F6)',
    request: CreateConnectionRequest,
    response: AccountingConnection,
    status: 201,
    handler(ctx) {
      const input = body(ctx, CreateConnectionRequest);
      const { connection } = ctx.state.connections.create(input, ctx.state.clock.iso());
      return created(connectionJson(connection));
    },
  },
  {
    method: 'GET',
    path: '/accounting/connection',
    scope: R,
    tag: 'connection',
    summary: 'The active connection, or {} when there is none (F39; deprecated in 2026)',
    response: AccountingConnection.or(z.strictObject({})),
    handler(ctx) {
      const active = ctx.state.connections.active();
      return ok(active ? connectionJson(active) : {});
    },
  },
  {
    method: 'GET',
    path: '/accounting/connection/:id',
    scope: R,
    tag: 'connection',
    summary: 'A connection by id (beta)',
    response: AccountingConnection,
    handler(ctx) {
      const found = ctx.state.connections.get(ctx.params.id!);
      if (!found) throw notFound('accounting connection', ctx.params.id);
      return ok(connectionJson(found));
    },
  },
  {
    method: 'GET',
    path: '/accounting/all-connections',
    scope: R,
    tag: 'connection',
    summary: 'Every connection, active or not (F6)',
    response: AllConnectionsResponse,
    handler(ctx) {
      return ok({ connections: ctx.state.connections.list.map(connectionJson) });
    },
  },
  {
    method: 'PATCH',
    path: '/accounting/connection/:id',
    scope: W,
    tag: 'connection',
    summary: 'Update settings (beta)',
    request: PatchConnectionRequest,
    response: AccountingConnection,
    handler(ctx) {
      const input = body(ctx, PatchConnectionRequest);
      const found = ctx.state.connections.get(ctx.params.id!);
      if (!found) throw notFound('accounting connection', ctx.params.id);
      for (const [key, value] of Object.entries(input.settings ?? {})) {
        if (value !== undefined) found.settings[key as keyof typeof found.settings] = value;
      }
      if (input.remote_provider_name) found.remote_provider_name = input.remote_provider_name;
      if (input.default_bill_pay_payment_account_id !== undefined) {
        found.default_bill_pay_payment_account_id = input.default_bill_pay_payment_account_id;
      }
      return ok(connectionJson(found));
    },
  },
  {
    method: 'DELETE',
    path: '/accounting/connection',
    scope: W,
    tag: 'connection',
    summary:
      'Unlink the active connection; removes custom fields, GL accounts, vendors (204, 404 when none; body {}, F29)',
    request: EmptyBody,
    handler(ctx) {
      body(ctx, EmptyBody);
      if (!ctx.state.connections.unlinkActive()) throw notFound('active accounting connection');
      return noContent();
    },
  },
  {
    method: 'POST',
    path: '/accounting/connection/:id/ready-to-migrate',
    scope: W,
    tag: 'connection',
    summary:
      'Mark an inactive connection ready to migrate (F7; four preconditions, 409 naming the failed one; body {}, F29)',
    request: EmptyBody,
    response: AccountingConnection,
    handler(ctx) {
      body(ctx, EmptyBody);
      const target = ctx.state.connections.get(ctx.params.id!);
      if (!target) throw notFound('accounting connection', ctx.params.id);
      assertReadyToMigrate(ctx.state.connections, target);
      target.is_ready_to_migrate = true;
      return ok(connectionJson(target));
    },
  },
  {
    method: 'POST',
    path: '/accounting/connection/:id/reactivate',
    scope: W,
    tag: 'connection',
    summary:
      'Link an unlinked connection again (F31; 200 connection; 409 while another is active; body {}, F29)',
    request: EmptyBody,
    response: AccountingConnection,
    handler(ctx) {
      body(ctx, EmptyBody);
      return ok(connectionJson(ctx.state.connections.reactivate(ctx.params.id!, ctx.state.clock.iso())));
    },
  },
];
