import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  CreateTaxCodeRequest,
  TAX_CODE_FIELD_EXTERNAL_ID,
  TaxCode,
  UploadTaxCodeOptionsRequest,
  UploadTaxCodeOptionsResponse,
  UploadTaxRatesRequest,
  UploadTaxRatesResponse,
} from '../../platform/schemas/accounting.ts';
import { ApiError } from '../core/errors.ts';
import type { RouteDef } from '../core/router.ts';
import { checkUploadBatch } from '../rules/batch.ts';
import type { TaxCodeOptionRecord, TaxRateRecord } from '../world/chart.ts';
import { listItems } from './chart-items.ts';
import { body, created, query } from './helpers.ts';

/** Tax (PLATFORM-FACTS F13): rates, then the tax code field, then its options. */

const TaxListQuery = z.object({
  start: z.string().min(1).optional(),
  page_size: z.coerce.number().int().min(2).max(100).default(20),
  accounting_connection_id: z.string().min(1).optional(),
  is_active: z.enum(['true', 'false']).optional(),
});

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
      const glKnown = (id: string) => chart.glAccounts.get(id) ?? chart.glAccounts.getBySvc(id);
      checkUploadBatch(
        'tax_rates',
        input.tax_rates.map((r) => r.id),
        (id) => chart.taxRates.get(id) !== undefined,
        ctx.state.faults,
        (i) =>
          glKnown(input.tax_rates[i]!.accounting_gl_account_id) ? null : 'unknown accounting_gl_account_id',
      );
      const now = ctx.state.clock.iso();
      const records: TaxRateRecord[] = input.tax_rates.map((r) => ({
        id: r.id,
        svc_id: randomUUID(),
        name: r.name,
        rate: r.rate,
        accounting_gl_account_id: r.accounting_gl_account_id,
        is_active: true,
        created_at: now,
      }));
      for (const r of records) chart.taxRates.insert(r);
      return created({ accounting_connection_id: connection.id, tax_rates: records });
    },
  },
  {
    method: 'GET',
    path: '/accounting/tax/rates',
    scope: 'accounting:read',
    tag: 'tax',
    summary: 'List tax rates',
    query: TaxListQuery,
    handler(ctx) {
      const q = query(ctx, TaxListQuery);
      return listItems(ctx, ctx.state.connections.resolve(q.accounting_connection_id).chart.taxRates, q);
    },
  },
  {
    method: 'POST',
    path: '/accounting/tax/code',
    scope: 'accounting:write',
    tag: 'tax',
    summary: 'Create the tax code field (one per connection; posting again returns it renamed)',
    request: CreateTaxCodeRequest,
    response: TaxCode,
    status: 201,
    handler(ctx) {
      const input = body(ctx, CreateTaxCodeRequest);
      const connection = ctx.state.connections.resolve(input.accounting_connection_id);
      ctx.state.connections.assertWritable(connection, 'tax code upload');
      const chart = connection.chart;
      chart.taxCode ??= {
        id: TAX_CODE_FIELD_EXTERNAL_ID,
        svc_id: randomUUID(),
        name: input.name,
        display_name: null,
        is_active: true,
        accounting_connection_id: connection.id,
        created_at: ctx.state.clock.iso(),
      };
      chart.taxCode.name = input.name;
      chart.taxCode.display_name = input.display_name ?? chart.taxCode.display_name ?? null;
      chart.taxCode.is_active = true;
      return created(chart.taxCode);
    },
  },
  {
    method: 'POST',
    path: '/accounting/tax/code/options',
    scope: 'accounting:write',
    tag: 'tax',
    summary: 'Upload tax code options (F13; tax_rate_ids must exist)',
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
          const missing = input.options[i]!.tax_rate_ids.filter((r) => !chart.taxRates.get(r));
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
        created_at: now,
      }));
      for (const r of records) chart.taxCodeOptions.insert(r);
      return created({ accounting_connection_id: connection.id, options: records });
    },
  },
  {
    method: 'GET',
    path: '/accounting/tax/code/options',
    scope: 'accounting:read',
    tag: 'tax',
    summary: 'List tax code options',
    query: TaxListQuery,
    handler(ctx) {
      const q = query(ctx, TaxListQuery);
      return listItems(
        ctx,
        ctx.state.connections.resolve(q.accounting_connection_id).chart.taxCodeOptions,
        q,
      );
    },
  },
];
