import type { z } from 'zod';
import { PlatformError } from '../errors.ts';
import { envelopeOf, type ItemResult, parseBody, parseItems } from '../parse.ts';
import {
  AccountingConnection,
  CreateConnectionRequest,
  PatchConnectionRequest,
} from '../schemas/accounting.ts';
import { checkBody, fetchOne, type ResourceContext, segment } from './context.ts';

/** Accounting connection (docs/platform.md F6, F7, G13). */
export function accountingConnectionResource(ctx: ResourceContext) {
  return {
    /** The active connection; null when there is none (404). */
    async getActive(): Promise<AccountingConnection | null> {
      return nullOn404(
        fetchOne(ctx, { method: 'GET', path: '/accounting/connection' }, AccountingConnection),
      );
    },

    /** A connection by id, active or not (beta); null when unknown. */
    async get(id: string): Promise<AccountingConnection | null> {
      const path = `/accounting/connection/${segment(id)}`;
      return nullOn404(fetchOne(ctx, { method: 'GET', path }, AccountingConnection));
    },

    /** GET /accounting/all-connections: `{connections: [...]}` (F6), each parsed on its own. */
    async all(): Promise<ItemResult<AccountingConnection>[]> {
      const path = '/accounting/all-connections';
      const response = await ctx.send({ method: 'GET', path });
      const body = parseBody(envelopeOf('connections'), response.body, `GET ${path}`, response.traceId);
      return parseItems(AccountingConnection, body.connections, 'connection');
    },

    /** F6: posting an active connection while one is active returns the incumbent (same id). */
    async create(body: z.input<typeof CreateConnectionRequest>): Promise<AccountingConnection> {
      checkBody(CreateConnectionRequest, body, 'POST /accounting/connection');
      return fetchOne(ctx, { method: 'POST', path: '/accounting/connection', body }, AccountingConnection);
    },

    /** PATCH /accounting/connection/{id} (beta): settings, sync-button flags, vendor credits. */
    async update(id: string, body: z.input<typeof PatchConnectionRequest>): Promise<AccountingConnection> {
      const path = `/accounting/connection/${segment(id)}`;
      checkBody(PatchConnectionRequest, body, `PATCH ${path}`);
      return fetchOne(ctx, { method: 'PATCH', path, body }, AccountingConnection);
    },

    /** DELETE /accounting/connection: unlinks the active one; false when there was none (F6). */
    async unlink(): Promise<boolean> {
      try {
        await ctx.send({ method: 'DELETE', path: '/accounting/connection' });
        return true;
      } catch (error) {
        if (error instanceof PlatformError && error.status === 404) return false;
        throw error;
      }
    },

    /**
     * F7: marks an inactive API connection ready to migrate. A failed precondition is 409
     * DEVELOPER_7001 (a ValidationError whose message names the precondition).
     */
    markReadyToMigrate(id: string): Promise<AccountingConnection> {
      const path = `/accounting/connection/${segment(id)}/ready-to-migrate`;
      return fetchOne(ctx, { method: 'POST', path }, AccountingConnection);
    },
  };
}

export type AccountingConnectionResource = ReturnType<typeof accountingConnectionResource>;

async function nullOn404<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof PlatformError && error.status === 404) return null;
    throw error;
  }
}
