import { pageOf } from '../../../../src/platform/schemas/common.ts';
import {
  ListPlatformVendorsQuery,
  PatchPlatformVendorRequest,
  PlatformVendor,
} from '../../../../src/platform/schemas/vendors.ts';
import { notFound } from '../core/errors.ts';
import type { RouteDef } from '../core/route.ts';
import { Entity, ListEntitiesQuery } from '../schemas/entities.ts';
import { body, ok, pageReply, query } from './helpers.ts';

/**
 * Entities (read-only, docs/platform.md G14) and platform vendors with their accounting-vendor link
 * (PATCH /vendors/{id} accounting_vendor_remote_id, docs/platform.md G19).
 */

function pageOfList<T extends { id: string }>(items: T[], start: string | undefined, size: number) {
  let from = 0;
  if (start !== undefined) {
    const at = items.findIndex((i) => i.id === start);
    from = at < 0 ? items.length : at + 1;
  }
  const data = items.slice(from, from + size);
  const more = from + size < items.length;
  return { data, cursor: more ? data[data.length - 1]!.id : null };
}

export const entityRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/entities',
    scope: 'entities:read',
    tag: 'entities',
    summary:
      'Entities: published accounts[] and location_ids, and the guide payment_accounts[] and bank_accounts[] (F27)',
    query: ListEntitiesQuery,
    response: pageOf(Entity),
    handler(ctx) {
      const q = query(ctx, ListEntitiesQuery);
      const items = ctx.state.world.entities.filter(
        (e) =>
          (q.entity_id === undefined || e.id === q.entity_id) &&
          (q.hide_inactive !== 'true' || e.is_active !== false),
      );
      const { data, cursor } = pageOfList(items, q.start, q.page_size);
      return pageReply(ctx, data, cursor);
    },
  },
  {
    method: 'GET',
    path: '/entities/:id',
    scope: 'entities:read',
    tag: 'entities',
    summary: 'One entity',
    response: Entity,
    handler(ctx) {
      const entity = ctx.state.world.entity(ctx.params.id!);
      if (!entity) throw notFound('entity', ctx.params.id);
      return ok(entity);
    },
  },
  {
    method: 'GET',
    path: '/vendors',
    scope: 'vendors:read',
    tag: 'vendors',
    summary: 'Platform vendors',
    query: ListPlatformVendorsQuery,
    handler(ctx) {
      const q = query(ctx, ListPlatformVendorsQuery);
      const items = ctx.state.world.vendors.filter(
        (v) => q.external_vendor_id === undefined || v.external_vendor_id === q.external_vendor_id,
      );
      const { data, cursor } = pageOfList(items, q.start, q.page_size);
      return pageReply(ctx, data, cursor);
    },
  },
  {
    method: 'GET',
    path: '/vendors/:id',
    scope: 'vendors:read',
    tag: 'vendors',
    summary: 'One platform vendor',
    response: PlatformVendor,
    handler(ctx) {
      const vendor = ctx.state.world.vendor(ctx.params.id!);
      if (!vendor) throw notFound('vendor', ctx.params.id);
      return ok(vendor);
    },
  },
  {
    method: 'PATCH',
    path: '/vendors/:id',
    scope: 'vendors:write',
    tag: 'vendors',
    summary: 'Update a vendor; accounting_vendor_remote_id links it to an accounting vendor',
    request: PatchPlatformVendorRequest,
    response: PlatformVendor,
    handler(ctx) {
      const input = body(ctx, PatchPlatformVendorRequest);
      const vendor = ctx.state.world.vendor(ctx.params.id!);
      if (!vendor) throw notFound('vendor', ctx.params.id);
      if (input.accounting_vendor_remote_id !== undefined)
        vendor.accounting_vendor_remote_id = input.accounting_vendor_remote_id;
      if (input.name !== undefined) vendor.name = input.name;
      if (input.external_vendor_id !== undefined) vendor.external_vendor_id = input.external_vendor_id;
      if (input.default_entity_id !== undefined) vendor.default_entity_id = input.default_entity_id;
      vendor.updated_at = ctx.state.clock.iso();
      return ok(vendor);
    },
  },
];
