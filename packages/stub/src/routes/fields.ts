import { randomUUID } from 'node:crypto';
import {
  Field,
  FieldOption,
  ListFieldOptionsQuery,
  ListFieldsQuery,
  UploadFieldOptionsRequest,
  UploadFieldOptionsResponse,
} from '../../../../src/platform/schemas/accounting.ts';
import { invalid, notFound } from '../core/errors.ts';
import type { RouteDef } from '../core/route.ts';
import { checkUploadBatch } from '../rules/batch.ts';
import {
  CreateFieldBody,
  DeleteItemBody,
  PatchFieldBody,
  PatchFieldOptionBody,
} from '../schemas/requests.ts';
import type { ConnectionChart, FieldOptionRecord, FieldRecord } from '../world/chart.ts';
import { assignDefined, findItem, itemRoutes, listItems } from './chart-items.ts';
import { body, created, ok, query } from './helpers.ts';

/**
 * Custom fields (docs/platform.md F9; F34: DATE is never created, is_required_for from a fixed
 * list) and their options (F10, F12; F30: PATCH and PUT take the same body, none of it required).
 */
const optionLookup = (chart: ConnectionChart) => ({
  getBySvc: (id: string) => chart.optionsBySvc.get(id),
});

export const fieldRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/accounting/fields',
    scope: 'accounting:write',
    tag: 'chart',
    summary: 'Create a custom field (F9, F34; an existing id returns it, reactivated; DATE is 422)',
    request: CreateFieldBody,
    response: Field,
    status: 201,
    handler(ctx) {
      const input = body(ctx, CreateFieldBody);
      const connection = ctx.state.connections.resolve(input.accounting_connection_id);
      ctx.state.connections.assertWritable(connection, 'custom field upload');
      const now = ctx.state.clock.iso();
      const existing = connection.chart.fields.get(input.id);
      if (existing) {
        if (!existing.is_active) {
          existing.is_active = true;
          existing.updated_at = now;
        }
        return created(existing);
      }
      checkUploadBatch('fields', [input.id], () => false, ctx.state.faults);
      const record: FieldRecord = {
        id: input.id,
        svc_id: randomUUID(),
        name: input.name,
        input_type: input.input_type,
        display_name: input.display_name ?? null,
        is_splittable: input.is_splittable ?? false,
        is_required_for: input.is_required_for ?? [],
        is_active: true,
        accounting_connection_id: connection.id,
        provider_name: connection.remote_provider_name,
        created_at: now,
        updated_at: now,
      };
      connection.chart.fields.insert(record);
      return created(record);
    },
  },
  ...itemRoutes<FieldRecord>(
    {
      path: '/accounting/fields',
      noun: 'custom field',
      table: (chart) => chart.fields,
      listQuery: ListFieldsQuery,
      patch: PatchFieldBody,
      applyPatch: (item, patch) => assignDefined(item, patch, ['name', 'display_name', 'is_splittable']),
      response: Field,
    },
    'chart',
  ),
  {
    method: 'POST',
    path: '/accounting/field-options',
    scope: 'accounting:write',
    tag: 'chart',
    summary: 'Upload options of a field (F10; field_id is the field svc_id)',
    request: UploadFieldOptionsRequest,
    response: UploadFieldOptionsResponse,
    status: 201,
    handler(ctx) {
      const input = body(ctx, UploadFieldOptionsRequest);
      const connection = ctx.state.connections.resolve(input.accounting_connection_id);
      ctx.state.connections.assertWritable(connection, 'field option upload');
      const field = connection.chart.fields.getBySvc(input.field_id);
      if (!field)
        throw invalid(`unknown field_id ${input.field_id} on this connection`, { fields: ['field_id'] });
      const table = connection.chart.optionsOf(field.svc_id);
      const ids = input.options.map((o) => o.id);
      checkUploadBatch('options', ids, (id) => table.get(id) !== undefined, ctx.state.faults);
      const now = ctx.state.clock.iso();
      const records: FieldOptionRecord[] = input.options.map((o) => ({
        id: o.id,
        svc_id: randomUUID(),
        value: o.value,
        display_name: null,
        code: o.code ?? null,
        visibility: 'VISIBLE',
        is_active: true,
        field_id: field.svc_id,
        field_remote_id: field.id,
        accounting_connection_id: connection.id,
        provider_name: connection.remote_provider_name,
        created_at: now,
        updated_at: now,
      }));
      for (const r of records) connection.chart.insertOption(r);
      // The published answer also lists the svc_ids created (`uploaded`).
      return created({
        accounting_connection_id: connection.id,
        options: records,
        uploaded: records.map((r) => r.svc_id),
      });
    },
  },
  {
    method: 'GET',
    path: '/accounting/field-options',
    scope: 'accounting:read',
    tag: 'chart',
    summary: 'List options of one field: exactly one of field_id / field_remote_id (F10)',
    query: ListFieldOptionsQuery,
    handler(ctx) {
      const q = query(ctx, ListFieldOptionsQuery);
      if ((q.field_id === undefined) === (q.field_remote_id === undefined)) {
        throw invalid('exactly one of field_id or field_remote_id is required', {
          fields: ['field_id', 'field_remote_id'],
        });
      }
      const connection = ctx.state.connections.resolve(q.accounting_connection_id);
      const field = q.field_id
        ? connection.chart.fields.getBySvc(q.field_id)
        : connection.chart.fields.get(q.field_remote_id!);
      if (!field) throw notFound('custom field', q.field_id ?? q.field_remote_id);
      return listItems(ctx, connection.chart.optionsOf(field.svc_id), q);
    },
  },
  ...optionItemRoutes(),
];

function optionItemRoutes(): RouteDef[] {
  const find = (ctx: Parameters<RouteDef['handler']>[0], connectionId?: string) =>
    findItem<FieldOptionRecord>(ctx.state, optionLookup, ctx.params.id!, 'field option', connectionId);
  const update = (method: 'PATCH' | 'PUT'): RouteDef => ({
    method,
    path: '/accounting/field-options/:id',
    scope: 'accounting:write',
    tag: 'chart',
    summary:
      method === 'PUT'
        ? 'Update an option (PUT; F30: the PATCH body, none of it required)'
        : 'Patch an option (F30: code, display_name, reactivate, value, visibility)',
    request: PatchFieldOptionBody,
    response: FieldOption,
    handler(ctx) {
      const patch = body(ctx, PatchFieldOptionBody);
      const { item, connection } = find(ctx, patch.accounting_connection_id);
      ctx.state.connections.assertWritable(connection, 'field option update');
      assignDefined(item, patch, ['value', 'display_name', 'code', 'visibility']);
      if (patch.reactivate === true) item.is_active = true;
      item.updated_at = ctx.state.clock.iso();
      return ok(item);
    },
  });
  return [
    {
      method: 'GET',
      path: '/accounting/field-options/:id',
      scope: 'accounting:read',
      tag: 'chart',
      summary: 'One option by svc_id',
      response: FieldOption,
      handler: (ctx) => ok(find(ctx).item),
    },
    update('PATCH'),
    update('PUT'),
    {
      method: 'DELETE',
      path: '/accounting/field-options/:id',
      scope: 'accounting:write',
      tag: 'chart',
      summary: 'Deactivate an option (204; JSON body, {} at least, F29)',
      request: DeleteItemBody,
      handler(ctx) {
        const input = body(ctx, DeleteItemBody);
        const { item, connection } = find(ctx, input.accounting_connection_id);
        ctx.state.connections.assertWritable(connection, 'field option delete');
        item.is_active = false;
        item.updated_at = ctx.state.clock.iso();
        return { status: 204 };
      },
    },
  ];
}
