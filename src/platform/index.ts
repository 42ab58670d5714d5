// The platform's developer API as the worker reads and writes it: the HTTP client (transport,
// tokens and grants, the shared rate limiter, tolerant readers of the published schemas) and its
// resources. Code outside src/platform imports it through this file (test/unit/front-doors.unit.test.ts).
export { backoffDelayMs, isRetryableStatus, type RetryOptions, retryAfterMs, sleep } from './backoff.ts';
export {
  baseUrlProblem,
  createPlatformClient,
  type PlatformAttemptEvent,
  type PlatformClient,
  type PlatformClientOptions,
} from './client.ts';
export {
  DuplicateUploadError,
  NetworkError,
  PlatformError,
  platformErrorFor,
  ValidationError,
} from './errors.ts';
export {
  authorizeUrlOf,
  ConsentFailure,
  type ConsentSettings,
  completeConsent,
  startConsent,
} from './grant/consent.ts';
export { GrantUnusableError } from './grant/grant-errors.ts';
export { type GrantStanding, grantStanding } from './grant/grant-standing.ts';
export { loadGrant } from './grant/grant-store.ts';
export type { GrantAnswer } from './grant/grant-token-request.ts';
export { TokenCipher } from './grant/token-cipher.ts';
export { reencryptStoredTokens, type TokenRekey } from './grant/token-rekey.ts';
export { attempt } from './http-attempt.ts';
export {
  DEFAULT_IDEMPOTENCY_TTL_DAYS,
  type IdempotencyRecord,
  type IdempotencyRecords,
} from './idempotency.ts';
export { sendIdempotent } from './idempotent-send.ts';
export { type ItemPage, Listing } from './pagination.ts';
export { type ItemResult, okValues } from './parse.ts';
export { runWithPriority } from './priority.ts';
export { DEFAULT_LIMITER, type RateLimiterOptions, type RateLimiterStats } from './rate-limiter.ts';
export type { Uploaded } from './resources/context.ts';
export type { ObjectList } from './resources/ready-objects.ts';
export { isValidWebhookSignature } from './resources/webhooks.ts';
export {
  type AccountingConnection,
  type AccountingVendor,
  AccountingVendorInput,
  ConnectionSettings,
  type ConnectionSettingsInput,
  CreateFieldRequest,
  CreateTaxCodeRequest,
  type Field,
  type FieldOption,
  FieldOptionInput,
  type GlAccount,
  GlAccountInput,
  PatchGlAccountRequest,
  TAX_CODE_FIELD_EXTERNAL_ID,
  TaxCode,
  type TaxCodeOption,
  TaxCodeOptionInput,
  type TaxRate,
  TaxRateInput,
} from './schemas/accounting.ts';
export { PAGE_SIZE_MIN } from './schemas/common.ts';
export type { Entity } from './schemas/entities.ts';
export {
  type AmountField,
  Bill,
  Cashback,
  type FieldSelection,
  type LineItem,
  Reimbursement,
  Transaction,
  Transfer,
} from './schemas/objects.ts';
export { type SyncResult, SyncType } from './schemas/syncs.ts';
export { ChallengeDelivery, EventType, SIGNATURE_HEADER, WebhookEvent } from './schemas/webhooks.ts';
export {
  currentDemandMeter,
  currentWindowShare,
  runMetered,
  runWithinShare,
  WindowShare,
} from './window-share.ts';
