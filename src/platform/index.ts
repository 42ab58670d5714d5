/** The platform client: the only way ledgersync talks to the svc developer API. */
export { backoffDelayMs, DEFAULT_RETRY, type RetryOptions } from './backoff.ts';
export {
  createPlatformClient,
  DEFAULT_KEY_PREFIX,
  type PlatformClient,
  type PlatformClientOptions,
  type PlatformClientStats,
} from './client.ts';
export {
  DirectConnectionError,
  DuplicateUploadError,
  IdempotencyConflictError,
  MissingScopeError,
  NetworkError,
  PlatformError,
  UnexpectedResponseError,
  ValidationError,
} from './errors.ts';
export type { PlatformRequest, PlatformResponse, QueryParams } from './http-transport.ts';
export {
  bodyHash,
  type IdempotencyRecord,
  type IdempotencyRecords,
  RedisIdempotencyRecords,
} from './idempotency.ts';
export type { IdempotentResult } from './idempotent-send.ts';
export { dateSlices, type ItemPage, Listing, readSlices } from './pagination.ts';
export { type ItemResult, okValues } from './parse.ts';
export {
  DEFAULT_LIMITER,
  LimiterClosedError,
  type RateLimiterOptions,
  type RateLimiterStats,
} from './rate-limiter.ts';
export type { ConnectionTarget, Filters, Uploaded } from './resources/context.ts';
export type {
  BillFilters,
  ReadyOptions,
  SimpleObjectFilters,
  TransactionFilters,
} from './resources/ready-objects.ts';
export type { SyncAnswer, SyncOutcome } from './resources/syncs.ts';
export { isValidWebhookSignature, webhookSignature } from './resources/webhooks.ts';
