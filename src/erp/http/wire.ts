import { z } from 'zod';
import { CustomField, ErpVendor, GlAccount, TaxCode, TaxRate } from '../chart.ts';
import { ErpWrite, ObjectKind, WriteResult } from '../types.ts';

/**
 * The HTTP ERP contract's bodies (docs/erp-http.md): envelopes around the very schemas of the
 * ERP contract (types.ts, chart.ts), so an item or a result on the wire is exactly what an
 * adapter takes or returns. The OpenAPI document docs/erp-http-contract.json is generated from
 * these (openapi.ts, `npm run docs`).
 */

/** The chart streams and the path each is served on under /chart/. */
export const CHART_SCHEMAS = {
  'gl-accounts': GlAccount,
  'custom-fields': CustomField,
  vendors: ErpVendor,
  'tax-rates': TaxRate,
  'tax-codes': TaxCode,
} as const;
export type ChartPath = keyof typeof CHART_SCHEMAS;

/** One page of a chart stream; `nextCursor` null on the last page. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().min(1).nullable() });
}

export const EntriesRequest = z.strictObject({ items: z.array(ErpWrite).max(10_000) });
/**
 * What a service checks of the whole request before answering per item: only that each item
 * names its kind. An item that fails its own schema is refused on its own (INVALID_INPUT), never
 * the batch.
 */
export const EntriesEnvelope = z.object({
  items: z.array(z.looseObject({ kind: ObjectKind })).max(10_000),
});
export const EntriesResponse = z.object({ results: z.array(WriteResult) });

export const Health = z.object({ ok: z.literal(true), name: z.string().optional() });

/** A refusal of the whole request (bad credentials, a body that is not the contract's). */
export const ErrorAnswer = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** The signature header of HMAC authentication: `t=<unix seconds>,v1=<hex>`. */
export const SIGNATURE_HEADER = 'x-ledgersync-signature';
