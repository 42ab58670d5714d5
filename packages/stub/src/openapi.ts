import { z } from 'zod';
import { API_PREFIX, ErrorBody } from '../../../src/platform/schemas/common.ts';
import type { RouteDef } from './core/route.ts';

/**
 * OpenAPI 3.1 document of the platform routes, generated from the same zod schemas the routes
 * validate with (z.toJSONSchema), served at /openapi.json.
 */

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return out;
}

function queryParameters(schema: z.ZodType | undefined): unknown[] {
  if (!schema || !(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    in: 'query',
    required: !field.safeParse(undefined).success,
    schema: jsonSchema(field, 'input'),
  }));
}

function operation(route: RouteDef): Record<string, unknown> {
  const pathParams = [...route.path.matchAll(/:([a-z_]+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const op: Record<string, unknown> = {
    summary: route.summary,
    tags: route.tag ? [route.tag] : [],
    parameters: [...pathParams, ...queryParameters(route.query)],
    responses: {
      [String(route.status ?? (route.method === 'DELETE' ? 204 : 200))]: {
        description: 'Success',
        ...(route.response
          ? { content: { 'application/json': { schema: jsonSchema(route.response, 'output') } } }
          : {}),
      },
      default: {
        description: 'Error (docs/platform.md F2)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
      },
    },
  };
  if (route.scope !== null) {
    const scopes =
      typeof route.scope === 'string' ? [route.scope] : Array.isArray(route.scope) ? route.scope : [];
    op.security = [{ bearer: scopes }];
  }
  if (route.request) {
    const schema = jsonSchema(route.request, 'input');
    const content: Record<string, unknown> = { 'application/json': { schema } };
    if (route.allowForm) content['application/x-www-form-urlencoded'] = { schema };
    op.requestBody = { required: true, content };
  }
  return op;
}

export function buildOpenApi(routes: readonly RouteDef[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc developer API: accounting sync surface (ledgersync stub)',
      version: '1',
      description: 'Served by the ledgersync platform stub; control routes are documented in docs/stub.md.',
    },
    servers: [{ url: API_PREFIX }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'POST /token (client credentials)' },
      },
      schemas: { ErrorBody: jsonSchema(ErrorBody, 'output') },
    },
    paths,
  };
}
