import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import type { StubState } from '../state.ts';
import type { BodyKind } from './http.ts';

/**
 * A route of the stub as data: method, path, scope, schemas and handler. server.ts registers them
 * on fastify; openapi.ts describes them; the handlers never see fastify.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TokenInfo {
  clientId: string;
  scopes: ReadonlySet<string>;
  expiresAt: number;
}

export interface RouteContext {
  method: Method;
  /** Path below the API prefix (platform routes) or the full path (control routes). */
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  bodyKind: BodyKind;
  headers: IncomingHttpHeaders;
  state: StubState;
  auth: TokenInfo | null;
  ip: string;
  /** `http://host:port` as the client addressed the stub; page.next is built on it (F4). */
  origin: string;
  now: number;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RouteDef {
  method: Method;
  /** `/accounting/accounts/:id` style. */
  path: string;
  /** Scope the bearer token needs (F1, 403 DEVELOPER_7100); `null` = no token (POST /token). */
  scope: string | string[] | null | ((ctx: RouteContext) => string[]);
  summary: string;
  allowForm?: boolean;
  request?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
  status?: number;
  tag?: string;
  handler(ctx: RouteContext): Reply | Promise<Reply>;
}
