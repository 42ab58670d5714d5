import type { Method, RouteDef } from './route.ts';

/**
 * The stub's routes grouped by path, for fastify: one fastify route per path, for every method,
 * so a path that exists answers a method it lacks with 405 rather than 404. fastify prefers a
 * static segment to a parameter (`/webhooks/mock-webhook-event` over `/webhooks/:id`); a method
 * the static path lacks goes to the first route, in the order given, whose pattern covers it
 * (`GET /webhooks/mock-webhook-event` is `GET /webhooks/:id` with that id), as the platform's
 * first-match routing does.
 */

/** The methods each path is registered for; any other method is fastify's 404. */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export interface RouteMatch {
  def: RouteDef;
  params: Record<string, string>;
}

export interface PathRoutes {
  /** The fastify URL pattern, `/accounting/accounts/:id`. */
  path: string;
  /** The route for a method with the path's parameters as fastify decoded them; null = 405. */
  match(method: string, params: Record<string, string>): RouteMatch | null;
}

const segments = (path: string) => path.split('/').filter((s) => s.length > 0);
const isParam = (segment: string) => segment.startsWith(':');

/**
 * How `pattern` covers the path `own`: for each of its parameters, the segment of `own` (a
 * literal) or the name of `own`'s parameter at that place; null when it does not cover it.
 */
function cover(
  pattern: string[],
  own: string[],
): Array<[name: string, literal: string | null, from: string]> | null {
  if (pattern.length !== own.length) return null;
  const bindings: Array<[string, string | null, string]> = [];
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const o = own[i]!;
    if (isParam(p)) bindings.push([p.slice(1), isParam(o) ? null : o, o.slice(1)]);
    else if (p !== o) return null;
  }
  return bindings;
}

export function routesByPath(defs: readonly RouteDef[]): PathRoutes[] {
  const paths = [...new Set(defs.map((d) => d.path))];
  return paths.map((path) => {
    const own = segments(path);
    const byMethod = new Map<string, { def: RouteDef; bindings: NonNullable<ReturnType<typeof cover>> }>();
    for (const method of METHODS) {
      for (const def of defs) {
        const bindings = def.method === (method as Method) ? cover(segments(def.path), own) : null;
        if (!bindings) continue;
        byMethod.set(method, { def, bindings });
        break;
      }
    }
    return {
      path,
      match(method, params) {
        const found = byMethod.get(method);
        if (!found) return null;
        const bound: Record<string, string> = {};
        for (const [name, literal, from] of found.bindings) bound[name] = literal ?? params[from] ?? '';
        return { def: found.def, params: bound };
      },
    };
  });
}
