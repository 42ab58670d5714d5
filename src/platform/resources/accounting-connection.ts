import type { z } from 'zod';
import { PlatformError, UnexpectedResponseError } from '../errors.ts';
import { envelopeOf, type ItemResult, okValues, parseBody, parseItems } from '../parse.ts';
import {
  AccountingConnection,
  CreateConnectionRequest,
  PatchConnectionRequest,
} from '../schemas/accounting.ts';
import { checkBody, fetchOne, type ResourceContext, segment } from './context.ts';

/** Accounting connection (docs/platform.md F6, F7, G13). */
export function accountingConnectionResource(ctx: ResourceContext) {
  return {
    /**
     * The active connection; null when there is none (docs/platform.md F39). Read from the list of
     * all connections, which the 2026 reference prefers; where that route is missing (an older
     * platform), from the deprecated single read, whose `{}` (or 404) means "none".
     */
    async getActive(): Promise<AccountingConnection | null> {
      let listed: ItemResult<AccountingConnection>[];
      try {
        listed = await this.all();
      } catch (error) {
        if (!routeMissing(error)) throw error;
        return activeFromSingleRead(ctx);
      }
      const active = okValues(listed).filter((c) => c.is_active);
      // G13: one connection is active at a time; an API one is what the single read would name.
      // Another type is returned as it is, for the caller to name: ledgersync never syncs it (F39,
      // src/app/connection-refusal.ts), and "none" would send the operator looking elsewhere.
      const found = active.find((c) => c.connection_type === 'API') ?? active[0];
      if (found) return found;
      // "None" only when every connection was read: an unreadable one may be the active one.
      const unreadable = listed.flatMap((c) => (c.ok ? [] : [c.error]));
      if (unreadable.length > 0)
        throw new UnexpectedResponseError({
          status: null,
          code: null,
          message: `GET /accounting/all-connections: no readable active connection; ${unreadable.join('; ')}`,
          traceId: null,
          retryable: false,
        });
      return null;
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

/** A 404 or 405 on a list route: the route itself is not there. */
function routeMissing(error: unknown): boolean {
  return error instanceof PlatformError && (error.status === 404 || error.status === 405);
}

/** The deprecated single read: the connection, or `{}` (or 404) when none is active (F39). */
async function activeFromSingleRead(ctx: ResourceContext): Promise<AccountingConnection | null> {
  const path = '/accounting/connection';
  let response: Awaited<ReturnType<ResourceContext['send']>>;
  try {
    response = await ctx.send({ method: 'GET', path });
  } catch (error) {
    if (error instanceof PlatformError && error.status === 404) return null;
    throw error;
  }
  if (isEmptyObject(response.body)) return null;
  return parseBody(AccountingConnection, response.body, `GET ${path}`, response.traceId);
}

function isEmptyObject(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0;
}

async function nullOn404<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof PlatformError && error.status === 404) return null;
    throw error;
  }
}
