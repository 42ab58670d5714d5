import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { z } from 'zod';
import type { StubState } from '../state.ts';
import type { BodyKind } from './http.ts';

/** A tiny method + path router: the stub's ~70 routes are matched by segments, no framework. */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TokenInfo {
  clientId: string;
  scopes: ReadonlySet<string>;
  expiresAt: number;
}

export interface RouteContext {
  req: IncomingMessage;
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

interface CompiledRoute {
  def: RouteDef;
  segments: string[];
}

export interface RouteMatch {
  def: RouteDef;
  params: Record<string, string>;
}

export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(...defs: RouteDef[]): this {
    for (const def of defs) this.routes.push({ def, segments: split(def.path) });
    return this;
  }

  get all(): readonly RouteDef[] {
    return this.routes.map((r) => r.def);
  }

  /** The route for method + path; `allowed` lists the methods of a path that exists. */
  match(method: string, path: string): { match: RouteMatch | null; pathExists: boolean } {
    const parts = split(path);
    let pathExists = false;
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      pathExists = true;
      if (route.def.method === method) return { match: { def: route.def, params }, pathExists };
    }
    return { match: null, pathExists };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const v = parts[i]!;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(v);
      } catch {
        return null;
      }
    } else if (p !== v) return null;
  }
  return params;
}

/** First value of each query parameter. */
export function queryObject(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of search) if (!(k in out)) out[k] = v;
  return out;
}
