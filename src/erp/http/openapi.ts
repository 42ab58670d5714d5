import { z } from 'zod';
import { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from '../chart.ts';
import { ErpWrite, LookupResult, VendorInput, WriteResult } from '../types.ts';
import { CHART_SCHEMAS, EntriesRequest, EntriesResponse, ErrorAnswer, Health, pageOf } from './wire.ts';

/**
 * The OpenAPI 3.1 document of the HTTP ERP contract, built from the zod schemas the adapter and
 * the reference service validate with, so the document cannot drift from the code: `npm run docs`
 * writes it to docs/erp-http-contract.json and a unit test checks the file is current.
 * zod refinements (line amounts summing to the total, no control characters) have no JSON Schema
 * form; docs/erp-http.md states them in words.
 */

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: object) => ({ content: { 'application/json': { schema } } });

const CHART_ITEMS: Record<string, z.ZodType> = {
  GlAccount,
  CustomField,
  FieldOption,
  ErpVendor,
  TaxRate,
  TaxCode,
};
const CHART_ITEM_NAME: Record<keyof typeof CHART_SCHEMAS, string> = {
  'gl-accounts': 'GlAccount',
  'custom-fields': 'CustomField',
  vendors: 'ErpVendor',
  'tax-rates': 'TaxRate',
  'tax-codes': 'TaxCode',
};

function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  const add = (schema: z.ZodType, id: string) => registry.add(schema, { id });
  for (const [id, schema] of Object.entries(CHART_ITEMS)) {
    add(schema, id);
    add(pageOf(schema), `${id}Page`);
  }
  add(ErpWrite, 'ErpWrite');
  add(VendorInput, 'VendorInput');
  add(WriteResult, 'WriteResult');
  add(LookupResult, 'LookupResult');
  add(EntriesRequest, 'EntriesRequest');
  add(EntriesResponse, 'EntriesResponse');
  add(Health, 'Health');
  add(ErrorAnswer, 'ErrorAnswer');
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Record<string, unknown>> };
  // The document is one file: $schema and $id per component are noise in OpenAPI 3.1.
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema]),
  );
}

const refusals = {
  '400': {
    description: 'The request is not the contract’s (the body names why).',
    ...json(ref('ErrorAnswer')),
  },
  '401': { description: 'Missing or wrong credentials.', ...json(ref('ErrorAnswer')) },
  '429': { description: 'Too many requests: retried with backoff (Retry-After honoured).' },
  '503': { description: 'Unavailable now: retried with backoff.' },
};

function chartPath(name: keyof typeof CHART_SCHEMAS) {
  return {
    get: {
      operationId: `chart_${name.replace('-', '_')}`,
      summary: `One page of ${name}, in a stable order; follow nextCursor until null.`,
      parameters: [{ name: 'cursor', in: 'query', required: false, schema: { type: 'string' } }],
      responses: { '200': json(ref(`${CHART_ITEM_NAME[name]}Page`)), ...refusals },
    },
  };
}

function openApiDocument(): Record<string, unknown> {
  const chart = Object.fromEntries(
    (Object.keys(CHART_SCHEMAS) as (keyof typeof CHART_SCHEMAS)[]).map((name) => [
      `/chart/${name}`,
      chartPath(name),
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'ledgersync HTTP ERP contract',
      version: '1',
      description:
        'What an ERP service implements so ledgersync posts into it (ERP=http). See docs/erp-http.md for the rules in words: idempotency by (kind, objectId), results in input order, one bad item never fails the others.',
    },
    security: [{ bearer: [] }, { hmac: [] }],
    paths: {
      '/health': { get: { operationId: 'health', responses: { '200': json(ref('Health')) } } },
      ...chart,
      '/chart/custom-fields/{id}/options': {
        get: {
          operationId: 'chart_field_options',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'cursor', in: 'query', required: false, schema: { type: 'string' } },
          ],
          responses: { '200': json(ref('FieldOptionPage')), ...refusals },
        },
      },
      '/entries': {
        post: {
          operationId: 'post_entries',
          summary:
            'Writes each item once per (kind, objectId); one result per item, in input order. A repeat returns the first result with replayed: true.',
          requestBody: { required: true, ...json(ref('EntriesRequest')) },
          responses: { '200': json(ref('EntriesResponse')), ...refusals },
        },
      },
      '/vendors': {
        post: {
          operationId: 'create_vendor',
          summary: 'Creates a vendor once per objectId; referenceId is the new vendor’s id.',
          requestBody: { required: true, ...json(ref('VendorInput')) },
          responses: { '200': json(ref('WriteResult')), ...refusals },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'ERP_HTTP_TOKEN' },
        hmac: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Ledgersync-Signature',
          description:
            't=<unix seconds>,v1=<lowercase hex HMAC-SHA256(ERP_HTTP_HMAC_SECRET, "<t>.<raw body>")>; refused when t is more than 300 s from the service clock.',
        },
      },
      schemas: componentSchemas(),
    },
  };
}

/** The file `npm run docs` writes (two-space JSON, trailing newline). */
export function openApiText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
