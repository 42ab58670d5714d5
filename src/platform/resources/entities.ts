import type { z } from 'zod';
import type { Listing } from '../pagination.ts';
import { Entity, type ListEntitiesQuery } from '../schemas/entities.ts';
import { type Filters, fetchOne, listing, type ResourceContext, segment } from './context.ts';

/** Entities (subsidiaries), read-only (docs/platform.md G14: GET /entities). */
export function entitiesResource(ctx: ResourceContext) {
  return {
    list(filters: Filters<z.input<typeof ListEntitiesQuery>> = {}): Listing<Entity> {
      return listing(ctx, '/entities', filters, Entity, 'entity');
    },
    get(id: string): Promise<Entity> {
      return fetchOne(ctx, { method: 'GET', path: `/entities/${segment(id)}` }, Entity);
    },
  };
}
