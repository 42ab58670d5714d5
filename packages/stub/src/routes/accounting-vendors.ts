import { randomUUID } from 'node:crypto';
import {
  AccountingVendor,
  ListAccountingVendorsQuery,
  UploadVendorsRequest,
  UploadVendorsResponse,
} from '../../../../src/platform/schemas/accounting.ts';
import type { RouteDef } from '../core/route.ts';
import { checkUploadBatch } from '../rules/batch.ts';
import { PatchAccountingVendorBody } from '../schemas/requests.ts';
import { builtInFieldInfo, type VendorRecord } from '../world/chart.ts';
import { assignDefined, itemRoutes } from './chart-items.ts';
import { body, created } from './helpers.ts';

/**
 * Accounting vendors (docs/platform.md F11, F12). Uploading a vendor does not attach it to any
 * transaction (docs/platform.md G26): only POST /accounting/codings does.
 */
export const accountingVendorRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/accounting/vendors',
    scope: 'accounting:write',
    tag: 'chart',
    summary: 'Upload accounting vendors (F11)',
    request: UploadVendorsRequest,
    response: UploadVendorsResponse,
    status: 201,
    handler(ctx) {
      const input = body(ctx, UploadVendorsRequest);
      const connection = ctx.state.connections.resolve(input.accounting_connection_id);
      ctx.state.connections.assertWritable(connection, 'vendor upload');
      const table = connection.chart.vendors;
      const ids = input.vendors.map((v) => v.id);
      checkUploadBatch('vendors', ids, (id) => table.get(id) !== undefined, ctx.state.faults);
      const now = ctx.state.clock.iso();
      const records: VendorRecord[] = input.vendors.map((v) => ({
        id: v.id,
        svc_id: randomUUID(),
        name: v.name,
        code: v.code ?? null,
        is_active: true,
        is_synced: true,
        accounting_connection_id: connection.id,
        provider_name: connection.remote_provider_name,
        vendor_category_info: builtInFieldInfo(connection.id, 'Merchant'),
        created_at: now,
        updated_at: now,
      }));
      for (const r of records) table.insert(r);
      // The published answer also lists the svc_ids created (`uploaded`).
      return created({
        accounting_connection_id: connection.id,
        vendors: records,
        uploaded: records.map((r) => r.svc_id),
      });
    },
  },
  ...itemRoutes<VendorRecord>(
    {
      path: '/accounting/vendors',
      noun: 'accounting vendor',
      table: (chart) => chart.vendors,
      listQuery: ListAccountingVendorsQuery,
      patch: PatchAccountingVendorBody,
      applyPatch: (item, patch) => assignDefined(item, patch, ['name', 'code']),
      response: AccountingVendor,
    },
    'chart',
  ),
];
