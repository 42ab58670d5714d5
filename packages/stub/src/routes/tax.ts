import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  CreateTaxCodeRequest,
  TAX_CODE_FIELD_EXTERNAL_ID,
  TaxCode,
  TaxCodeOption,
  TaxRate,
  UploadTaxCodeOptionsRequest,
  UploadTaxCodeOptionsResponse,
  UploadTaxRatesRequest,
  UploadTaxRatesResponse,
} from '../../../../src/platform/schemas/accounting.ts';
import { ApiError, invalid, notFound } from '../core/errors.ts';
import type { RouteContext, RouteDef } from '../core/route.ts';
import { checkUploadBatch } from '../rules/batch.ts';
import {
  DeleteItemBody,
  PatchTaxCodeBody,
  PatchTaxCodeOptionBody,
  PatchTaxRateBody,
  TaxCodeQuery,
} from '../schemas/requests.ts';
import type { ConnectionChart, TaxCodeOptionRecord, TaxCodeRecord, TaxRateRecord } from '../world/chart.ts';
import type { ConnectionRecord } from '../world/connections.ts';
import { assignDefined, itemRoutes } from './chart-items.ts';
import { body, created, noContent, ok, query } from './helpers.ts';

/**
 * Tax (docs/platform.md F13): rates, then the tax code field, then its options. F31 adds
 * GET/PATCH/DELETE of the tax code field (one active per connection) and PATCH/DELETE of rates
 * and options by svc_id, like the other chart items (F29: the connection in the body).
 * Options carry `accounting_connection_id`; their `tax_rate_ids` are the rates' remote ids.
 */

const TaxListQuery = z.object({
  start: z.string().min(1).optional(),
  page_size: z.coerce.number().int().min(2).max(100).default(20),
  accounting_connection_id: z.string().min(1).optional(),
  is_active: z.enum(['true', 'false']).optional(),
  remote_id: z.string().min(1).optional(),
  is_synced: z.enum(['true', 'false']).optional(),
});

const glKnown = (chart: ConnectionChart, id: string) =>
  chart.glAccounts.get(id) ?? chart.glAccounts.getBySvc(id);

const missingRates = (chart: ConnectionChart, ids: string[]) => ids.filter((r) => !chart.taxRates.get(r));

/** The connection's tax code field, active or not; 404 when it was never created. */
function taxCodeOf(
  ctx: RouteContext,
  connectionId: string | undefined,
): {
  code: TaxCodeRecord;
  connection: ConnectionRecord;
} {
  const connection = ctx.state.connections.resolve(connectionId);
  const code = connection.chart.taxCode;
  if (!code) throw notFound('tax code field of connection', connection.id);
  return { code, connection };
}

export const taxRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/accounting/tax/rates',
    scope: 'accounting:write',
    tag: 'tax',
    summary: 'Upload tax rates (F13; negative rates allowed, GL account must exist)',
    request: UploadTaxRatesRequest,
    response: UploadTaxRatesResponse,
    status: 201,
    handler(ctx) {
      const input = body(ctx, UploadTaxRatesRequest);
      const connection = ctx.state.connections.resolve(input.accounting_connection_id);
      ctx.state.connections.assertWritable(connection, 'tax rate upload');
      const { chart } = connection;
      checkUploadBatch(
        'tax_rates',
        input.tax_rates.map((r) => r.id),
        (id) => chart.taxRates.get(id) !== undefined,
        ctx.state.faults,
        (i) =>
          glKnown(chart, input.tax_rates[i]!.accounting_gl_account_id)
            ? null
            : 'unknown accounting_gl_account_id',
      );
      const now = ctx.state.clock.iso();
      const records: TaxRateRecord[] = input.tax_rates.map((r) => ({
        id: r.id,
        svc_id: randomUUID(),
        name: r.name,
        rate: r.rate,
        accounting_gl_account_id: r.accounting_gl_account_id,
        is_active: true,
        accounting_connection_id: connection.id,
        created_at: now,
        updated_at: now,
      }));
      for (const r of records) chart.taxRates.insert(r);
      return created({ accounting_connection_id: connection.id, tax_rates: records });
    },
  },
  ...itemRoutes<TaxRateRecord>(
    {
      path: '/accounting/tax/rates',
      noun: 'tax rate',
      table: (chart) => chart.taxRates,
      listQuery: TaxListQuery,
      patch: PatchTaxRateBody,
      applyPatch(item, patch, connection) {
        const gl = patch.accounting_gl_account_id;
        if (typeof gl === 'string' && !glKnown(connection.chart, gl)) {
          throw invalid(`unknown accounting_gl_account_id ${gl}`, { fields: ['accounting_gl_account_id'] });
        }
        assignDefined(item, patch, ['name', 'rate', 'accounting_gl_account_id']);
      },
      response: TaxRate,
    },
    'tax',
  ),
  {
    method: 'POST',
    path: '/accounting/tax/code',
    scope: 'accounting:write',
    tag: 'tax',
    summary: 'Create the tax code field (one per connection; posting again returns it renamed, reactivated)',
    request: CreateTaxCodeRequest,
    response: TaxCode,
    status: 201,
    handler(ctx) {
      const input = body(ctx, CreateTaxCodeRequest);
      const connection = ctx.state.connections.resolve(input.accounting_connection_id);
      ctx.state.connections.assertWritable(connection, 'tax code upload');
      const chart = connection.chart;
      const now = ctx.state.clock.iso();
      chart.taxCode ??= {
        id: TAX_CODE_FIELD_EXTERNAL_ID,
        svc_id: randomUUID(),
        name: input.name,
        display_name: null,
        is_active: true,
        accounting_connection_id: connection.id,
        created_at: now,
      };
      chart.taxCode.name = input.name;
      chart.taxCode.display_name = input.display_name ?? chart.taxCode.display_name ?? null;
      chart.taxCode.is_active = true;
      chart.taxCode.updated_at = now;
      return created(chart.taxCode);
    },
  },
  {
    method: 'GET',
    path: '/accounting/tax/code',
    scope: 'accounting:read',
    tag: 'tax',
    summary: 'The active tax code field of the connection (F31; 404 when none or deleted)',
    query: TaxCodeQuery,
    response: TaxCode,
    handler(ctx) {
      const q = query(ctx, TaxCodeQuery);
      const { code, connection } = taxCodeOf(ctx, q.accounting_connection_id);
      if (!code.is_active) throw notFound('active tax code field of connection', connection.id);
      return ok(code);
    },
  },
  {
    method: 'PATCH',
    path: '/accounting/tax/code',
    scope: 'accounting:write',
    tag: 'tax',
    summary: 'Update the tax code field (F31: name, display_name, reactivate)',
    request: PatchTaxCodeBody,
    response: TaxCode,
    handler(ctx) {
      const patch = body(ctx, PatchTaxCodeBody);
      const { code, connection } = taxCodeOf(ctx, patch.accounting_connection_id);
      ctx.state.connections.assertWritable(connection, 'tax code update');
      assignDefined(code, patch, ['name', 'display_name']);
      if (patch.reactivate === true) code.is_active = true;
      code.updated_at = ctx.state.clock.iso();
      return ok(code);
    },
  },
  {
    method: 'DELETE',
    path: '/accounting/tax/code',
    scope: 'accounting:write',
    tag: 'tax',
    summary: 'Deactivate the tax code field (F31; 204; options can no longer be chosen in codings)',
    request: DeleteItemBody,
    handler(ctx) {
      const input = body(ctx, DeleteItemBody);
      const { code, connection } = taxCodeOf(ctx, input.accounting_connection_id);
      ctx.state.connections.assertWritable(connection, 'tax code delete');
      code.is_active = false;
      code.updated_at = ctx.state.clock.iso();
      return noContent();
    },
  },
  {
    method: 'POST',
    path: '/accounting/tax/code/options',
    scope: 'accounting:write',
    tag: 'tax',
    summary: 'Upload tax code options (F13; tax_rate_ids are remote ids of existing rates, F31)',
    request: UploadTaxCodeOptionsRequest,
    response: UploadTaxCodeOptionsResponse,
    status: 201,
    handler(ctx) {
      const input = body(ctx, UploadTaxCodeOptionsRequest);
      const connection = ctx.state.connections.resolve(input.accounting_connection_id);
      ctx.state.connections.assertWritable(connection, 'tax code option upload');
      const { chart } = connection;
      if (!chart.taxCode) {
        throw new ApiError('DEVELOPER_7001', 'create the tax code first (POST /accounting/tax/code)', {
          fields: ['options'],
        });
      }
      checkUploadBatch(
        'options',
        input.options.map((o) => o.id),
        (id) => chart.taxCodeOptions.get(id) !== undefined,
        ctx.state.faults,
        (i) => {
          const missing = missingRates(chart, input.options[i]!.tax_rate_ids);
          return missing.length > 0 ? `unknown tax_rate_ids ${missing.join(', ')}` : null;
        },
      );
      const now = ctx.state.clock.iso();
      const records: TaxCodeOptionRecord[] = input.options.map((o) => ({
        id: o.id,
        svc_id: randomUUID(),
        name: o.name,
        tax_rate_ids: o.tax_rate_ids,
        is_active: true,
        accounting_connection_id: connection.id,
        created_at: now,
        updated_at: now,
      }));
      for (const r of records) chart.taxCodeOptions.insert(r);
      return created({ accounting_connection_id: connection.id, options: records });
    },
  },
  ...itemRoutes<TaxCodeOptionRecord>(
    {
      path: '/accounting/tax/code/options',
      noun: 'tax code option',
      table: (chart) => chart.taxCodeOptions,
      listQuery: TaxListQuery,
      patch: PatchTaxCodeOptionBody,
      applyPatch(item, patch, connection) {
        const ids = patch.tax_rate_ids;
        if (Array.isArray(ids)) {
          const missing = missingRates(connection.chart, ids as string[]);
          if (missing.length > 0) {
            throw invalid(`unknown tax_rate_ids ${missing.join(', ')} (remote ids of uploaded rates)`, {
              fields: ['tax_rate_ids'],
              unknown_tax_rate_ids: missing,
            });
          }
        }
        assignDefined(item, patch, ['name', 'tax_rate_ids']);
      },
      response: TaxCodeOption,
    },
    'tax',
  ),
];
