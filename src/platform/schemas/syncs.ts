import { z } from 'zod';
import { SvcId } from './common.ts';
import { FieldSelection } from './objects.ts';

/** POST /accounting/syncs (docs/platform.md F14, F15), codings (F18), ready-to-sync (F19). */

/** F14: at most 5,000 successful and 5,000 failed items per call (docs/platform.md G9). */
const SYNC_LIST_MAX = 5000;

export const SyncType = z.enum([
  'TRANSACTION_SYNC',
  'REIMBURSEMENT_SYNC',
  'BILL_SYNC',
  'BILL_PAYMENT_SYNC',
  'TRANSFER_SYNC',
  'STATEMENT_CREDIT_SYNC',
  'REPAYMENT_SYNC',
]);
export type SyncType = z.infer<typeof SyncType>;

/** F14: `deep_link_url` is for bills only (checked by the service against sync_type). */
const SuccessfulSync = z.strictObject({
  id: z.string().min(1),
  reference_id: z.string().min(1),
  deep_link_url: z.url().optional(),
});

/** F14: `{id, error: {message}}`; a flat `{id, message}` is refused (422). */
const FailedSync = z.strictObject({
  id: z.string().min(1),
  error: z.strictObject({ message: z.string().min(1) }),
});

/** F14: each list 1..5000 when present; an empty list is 422 (omit it instead). */
export const SyncRequest = z.strictObject({
  idempotency_key: z.string().min(1).max(255),
  sync_type: SyncType,
  successful_syncs: z.array(SuccessfulSync).min(1).max(SYNC_LIST_MAX).optional(),
  failed_syncs: z.array(FailedSync).min(1).max(SYNC_LIST_MAX).optional(),
  sync_request_id: z.string().min(1).optional(),
});
export type SyncRequest = z.infer<typeof SyncRequest>;

const SyncResultStatus = z.enum(['SYNCED', 'FAILED', 'REJECTED']);

export const SyncResult = z.object({
  id: z.string(),
  status: SyncResultStatus,
  reason: z.string().optional(),
});
export type SyncResult = z.infer<typeof SyncResult>;

/** 201 answer; a replay (F15) is byte-for-byte the first answer. */
export const SyncResponse = z.object({
  sync_id: SvcId,
  results: z.array(SyncResult),
  sync_request_id: z.string().nullable().optional(),
});
export type SyncResponse = z.infer<typeof SyncResponse>;

// ---------------------------------------------------------------- codings (F18)

const CodingObjectType = z.enum(['TRANSACTION', 'REIMBURSEMENT']);

const OptionSelectionInput = z.strictObject({
  field_external_id: z.string().min(1),
  field_option_external_id: z.string().min(1),
});
const FreeFormSelectionInput = z.strictObject({
  field_external_id: z.string().min(1),
  free_form_text: z.string(),
});
const SelectionInput = z.union([OptionSelectionInput, FreeFormSelectionInput]);

/** F18: `Merchant` codes the accounting vendor, `Category` the GL account. */
export const CodingRequest = z.strictObject({
  object_type: CodingObjectType,
  object_id: z.string().min(1),
  accounting_field_selections: z.array(SelectionInput).min(1),
});
export type CodingRequest = z.infer<typeof CodingRequest>;

/** 200 answer: the coded object, with its new selections. */
export const CodingResponse = z.object({
  id: z.string(),
  accounting_field_selections: z.array(FieldSelection),
});
export type CodingResponse = z.infer<typeof CodingResponse>;

// ---------------------------------------------------------------- ready-to-sync (F19)

export const ReadyToSyncRequest = z.strictObject({
  object_ids: z.array(z.string().min(1)).min(1).max(500),
  object_type: CodingObjectType,
});
export type ReadyToSyncRequest = z.infer<typeof ReadyToSyncRequest>;
