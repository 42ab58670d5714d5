import { randomUUID } from 'node:crypto';
import {
  GlAccount,
  ListGlAccountsQuery,
  UploadGlAccountsRequest,
  UploadGlAccountsResponse,
} from '../../../../src/platform/schemas/accounting.ts';
import type { RouteDef } from '../core/route.ts';
import { checkUploadBatch } from '../rules/batch.ts';
import { PatchGlAccountBody } from '../schemas/requests.ts';
import { builtInFieldInfo, type GlAccountRecord } from '../world/chart.ts';
import { assignDefined, itemRoutes } from './chart-items.ts';
import { body, created } from './helpers.ts';

/** GL accounts (docs/platform.md F8, F12): batch upload 1..500, all-or-nothing, insert-only. */
export const glAccountRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/accounting/accounts',
    scope: 'accounting:write',
    tag: 'chart',
    summary: 'Upload GL accounts (F8; `code` may be "")',
    request: UploadGlAccountsRequest,
    response: UploadGlAccountsResponse,
    status: 201,
    handler(ctx) {
      const input = body(ctx, UploadGlAccountsRequest);
      const connection = ctx.state.connections.resolve(input.accounting_connection_id);
      ctx.state.connections.assertWritable(connection, 'GL account upload');
      const table = connection.chart.glAccounts;
      const ids = input.gl_accounts.map((a) => a.id);
      checkUploadBatch('gl_accounts', ids, (id) => table.get(id) !== undefined, ctx.state.faults);
      const now = ctx.state.clock.iso();
      const records: GlAccountRecord[] = input.gl_accounts.map((a) => ({
        id: a.id,
        svc_id: randomUUID(),
        name: a.name,
        code: a.code ?? null,
        classification: a.classification,
        is_active: true,
        visibility: 'VISIBLE',
        created_at: now,
        updated_at: now,
        accounting_connection_id: connection.id,
        provider_name: connection.remote_provider_name,
        gl_account_category_info: builtInFieldInfo(connection.id, 'Category'),
      }));
      for (const r of records) table.insert(r);
      // The published answer also lists the svc_ids created (`uploaded`).
      return created({
        accounting_connection_id: connection.id,
        gl_accounts: records,
        uploaded: records.map((r) => r.svc_id),
      });
    },
  },
  ...itemRoutes<GlAccountRecord>(
    {
      path: '/accounting/accounts',
      noun: 'GL account',
      table: (chart) => chart.glAccounts,
      listQuery: ListGlAccountsQuery,
      // docs/platform.md F30: classification is fixed at upload (an unknown field in a PATCH).
      patch: PatchGlAccountBody,
      applyPatch: (item, patch) => assignDefined(item, patch, ['name', 'code', 'visibility']),
      response: GlAccount,
    },
    'chart',
  ),
];
