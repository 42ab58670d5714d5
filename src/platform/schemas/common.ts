import { z } from 'zod';

/**
 * Shared shapes of the svc developer API: the error body (docs/platform.md F2), the page envelope
 * and page query (F4), ids and money. Response schemas are plain z.object (extra fields are
 * stripped, never refused); request schemas are z.strictObject because the live service refuses
 * unknown fields (F5).
 */

export const API_PREFIX = '/developer/v1';

/** Error codes of F2, with the HTTP status each one is sent with. */
export const ERROR_STATUS = {
  DEVELOPER_7001: 422,
  DEVELOPER_7002: 401,
  DEVELOPER_7005: 400,
  DEVELOPER_7011: 400,
  DEVELOPER_7020: 400,
  DEVELOPER_7028: 401,
  DEVELOPER_7089: 400,
  DEVELOPER_7100: 403,
  DEVELOPER_7429: 429,
  DEVELOPER_7504: 504,
  // Not in F2's table: the 404 of a missing object and a generic 5xx are still F2-shaped bodies.
  DEVELOPER_7404: 404,
  DEVELOPER_7500: 500,
} as const;

export const ErrorCode = z.enum([
  'DEVELOPER_7001',
  'DEVELOPER_7002',
  'DEVELOPER_7005',
  'DEVELOPER_7011',
  'DEVELOPER_7020',
  'DEVELOPER_7028',
  'DEVELOPER_7089',
  'DEVELOPER_7100',
  'DEVELOPER_7429',
  'DEVELOPER_7504',
  'DEVELOPER_7404',
  'DEVELOPER_7500',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** One error as F2 shows it; `error_code` stays a plain string so unknown live codes still parse. */
const ErrorDetail = z.object({
  error_code: z.string(),
  message: z.string(),
  additional_info: z.record(z.string(), z.unknown()).nullable().optional(),
  notes: z.string().nullable().optional(),
});

/** docs/platform.md F2: every error body carries `error_v2` (and a legacy `error` copy). */
export const ErrorBody = z.object({
  error_v2: ErrorDetail,
  error: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Header carried by every response (F2). */
export const TRACE_ID_HEADER = 'x-trace-id';

/**
 * `is_active` of a chart item as read: absent or null means active (docs/platform.md F22: the
 * published tax rate and tax code shapes carry no `is_active`).
 */
export const ActiveFlag = z
  .boolean()
  .nullish()
  .transform((v) => v ?? true);

/** Platform-side uuid of an object or uploaded item (`svc_id`). */
export const SvcId = z.string().min(1);
export type SvcId = z.infer<typeof SvcId>;

/** The ERP's own id of an uploaded item (`id` in upload bodies). */
export const RemoteId = z.string().min(1).max(255);
export type RemoteId = z.infer<typeof RemoteId>;

/** ISO 8601 timestamp as the platform writes it. */
export const Timestamp = z.string();
export type Timestamp = z.infer<typeof Timestamp>;

/**
 * F4: page_size range and default. Query schemas ignore unknown parameters (z.object): F5 is
 * about request bodies.
 */
export const PAGE_SIZE_MIN = 2;
export const PAGE_SIZE_MAX = 100;
const PAGE_SIZE_DEFAULT = 20;

/** F4 query: `start` is the id of the last item of the previous page. */
export const PageQuery = z.object({
  start: z.string().min(1).optional(),
  page_size: z.coerce.number().int().min(PAGE_SIZE_MIN).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type PageQuery = z.infer<typeof PageQuery>;

const PageInfo = z.object({ next: z.string().nullable() });
type PageInfo = z.infer<typeof PageInfo>;

/** F4 envelope `{data, page: {next}}`; clients follow `page.next` as given. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), page: PageInfo });
}
export interface Page<T> {
  data: T[];
  page: PageInfo;
}
