import { z } from 'zod';

/**
 * Request bodies the stub validates with schemas of its own rather than the client's
 * (src/platform/schemas): where the live service accepts more than the client sends, or other
 * forms than it sends, the stub accepts what the live service accepts (docs/platform.md preamble:
 * superset, never a contradiction). Every body is strict: an unknown field is 422 DEVELOPER_7001
 * naming it (docs/platform.md F5).
 */

/** docs/platform.md F29: writes on one item name their connection in the JSON body. */
const Target = { accounting_connection_id: z.string().min(1).optional() };
const Reactivate = z.literal(true);
const Visibility = z.enum(['VISIBLE', 'HIDDEN']);
/** docs/platform.md F30: `code: ""` resets the code (null does too). */
const Code = z.string().nullable();

// ---------------------------------------------------------------- one-item writes (F29, F30)

/** DELETE of any chart item: a JSON body, `{}` at least (docs/platform.md F29). */
export const DeleteItemBody = z.strictObject({ ...Target });
export type DeleteItemBody = z.infer<typeof DeleteItemBody>;

/**
 * PATCH /accounting/accounts/{svc_id} (docs/platform.md F30): name, code, reactivate and the
 * connection; `classification` is refused as an unknown field. `visibility` stays accepted: the
 * platform guide (item lifecycle) makes GL accounts HIDDEN by PATCH, and the stub
 * accepts the union of both sources.
 */
export const PatchGlAccountBody = z.strictObject({
  ...Target,
  name: z.string().min(1).optional(),
  code: Code.optional(),
  reactivate: Reactivate.optional(),
  visibility: Visibility.optional(),
});
export type PatchGlAccountBody = z.infer<typeof PatchGlAccountBody>;

/** PATCH /accounting/fields/{svc_id}: name, display_name, is_splittable (+ reactivate, F12). */
export const PatchFieldBody = z.strictObject({
  ...Target,
  name: z.string().min(1).optional(),
  display_name: z.string().nullable().optional(),
  is_splittable: z.boolean().optional(),
  reactivate: Reactivate.optional(),
});
export type PatchFieldBody = z.infer<typeof PatchFieldBody>;

/** PATCH and PUT /accounting/field-options/{svc_id} (docs/platform.md F30): none required. */
export const PatchFieldOptionBody = z.strictObject({
  ...Target,
  code: Code.optional(),
  display_name: z.string().nullable().optional(),
  reactivate: Reactivate.optional(),
  value: z.string().min(1).optional(),
  visibility: Visibility.optional(),
});
export type PatchFieldOptionBody = z.infer<typeof PatchFieldOptionBody>;

/** PATCH /accounting/vendors/{svc_id}: name, code, reactivate. */
export const PatchAccountingVendorBody = z.strictObject({
  ...Target,
  name: z.string().min(1).optional(),
  code: Code.optional(),
  reactivate: Reactivate.optional(),
});
export type PatchAccountingVendorBody = z.infer<typeof PatchAccountingVendorBody>;

/** A decimal string, possibly negative (reverse charge, docs/platform.md F13). */
const TaxRateValue = z.string().regex(/^-?\d+(\.\d+)?$/, 'rate must be a decimal string like "0.05"');

/**
 * PATCH /accounting/tax/rates/{svc_id} (docs/platform.md F31). The published reference lists the
 * route without a body schema; the stub takes the upload's fields, each optional.
 */
export const PatchTaxRateBody = z.strictObject({
  ...Target,
  name: z.string().min(1).optional(),
  rate: TaxRateValue.optional(),
  accounting_gl_account_id: z.string().min(1).optional(),
  reactivate: Reactivate.optional(),
});
export type PatchTaxRateBody = z.infer<typeof PatchTaxRateBody>;

/** PATCH /accounting/tax/code/options/{svc_id} (F31): `tax_rate_ids` are remote ids. */
export const PatchTaxCodeOptionBody = z.strictObject({
  ...Target,
  name: z.string().min(1).optional(),
  tax_rate_ids: z.array(z.string().min(1)).optional(),
  reactivate: Reactivate.optional(),
});
export type PatchTaxCodeOptionBody = z.infer<typeof PatchTaxCodeOptionBody>;

/** PATCH /accounting/tax/code (F31): the connection's one tax code field. */
export const PatchTaxCodeBody = z.strictObject({
  ...Target,
  name: z.string().min(1).optional(),
  display_name: z.string().nullable().optional(),
  reactivate: Reactivate.optional(),
});
export type PatchTaxCodeBody = z.infer<typeof PatchTaxCodeBody>;

export const TaxCodeQuery = z.object({ ...Target });

/** POST /accounting/connection/{id}/reactivate (F31): nothing to say but `{}` (F29). */
export const EmptyBody = z.strictObject({});

// ---------------------------------------------------------------- custom field create (F9, F34)

/** docs/platform.md F34: DATE fields are read, never created. */
const CREATABLE_INPUT_TYPES = ['BOOLEAN', 'FREE_FORM_TEXT', 'SINGLE_CHOICE'] as const;

/** docs/platform.md F34: the objects a field can be required for. */
const REQUIRED_FOR = [
  'BILL',
  'BILL_PAYMENT',
  'INVOICE',
  'PURCHASE_ORDER',
  'REIMBURSEMENT',
  'SPEND_PROGRAM',
  'TRANSACTION',
  'TRANSFER_LEDGER_ENTRY_MAPPING',
  'VENDOR_CREDIT',
] as const;

export const CreateFieldBody = z.strictObject({
  ...Target,
  id: z.string().min(1).max(255),
  name: z.string().min(1),
  input_type: z.enum(CREATABLE_INPUT_TYPES, {
    error: (issue) =>
      issue.input === 'DATE'
        ? 'DATE fields are read, never created: input_type must be BOOLEAN, FREE_FORM_TEXT or SINGLE_CHOICE'
        : 'input_type must be BOOLEAN, FREE_FORM_TEXT or SINGLE_CHOICE',
  }),
  display_name: z.string().nullable().optional(),
  is_splittable: z.boolean().optional(),
  is_required_for: z.array(z.enum(REQUIRED_FOR)).optional(),
});
export type CreateFieldBody = z.infer<typeof CreateFieldBody>;

// ---------------------------------------------------------------- sync (F14, F33)

/** docs/platform.md F14, plus the two sync types of the published enum (F33). */
const SYNC_TYPES = [
  'TRANSACTION_SYNC',
  'REIMBURSEMENT_SYNC',
  'BILL_SYNC',
  'BILL_PAYMENT_SYNC',
  'TRANSFER_SYNC',
  'STATEMENT_CREDIT_SYNC',
  'REPAYMENT_SYNC',
  'BROKERAGE_ORDER_SYNC',
  'WALLET_TRANSFER_SYNC',
] as const;
const SyncTypeBody = z.enum(SYNC_TYPES);
export type StubSyncType = z.infer<typeof SyncTypeBody>;

const SuccessfulSyncBody = z.strictObject({
  id: z.string().min(1),
  reference_id: z.string().min(1),
  deep_link_url: z.url().optional(),
});

/** F14: `{id, error: {message}}`; a flat `{id, message}` is refused. */
const FailedSyncBody = z.strictObject({
  id: z.string().min(1),
  error: z.strictObject({ message: z.string().min(1) }),
});

const SYNC_LIST_MAX = 5000;

export const SyncBody = z.strictObject({
  idempotency_key: z.string().min(1).max(255),
  sync_type: SyncTypeBody,
  successful_syncs: z.array(SuccessfulSyncBody).min(1).max(SYNC_LIST_MAX).optional(),
  failed_syncs: z.array(FailedSyncBody).min(1).max(SYNC_LIST_MAX).optional(),
  sync_request_id: z.string().min(1).optional(),
});
export type SyncBody = z.infer<typeof SyncBody>;

// ---------------------------------------------------------------- codings (F18, F35)

const CodingObjectType = z.enum(['TRANSACTION', 'REIMBURSEMENT']);

const OptionSelection = z.strictObject({
  field_external_id: z.string().min(1),
  field_option_external_id: z.string().min(1),
});
const FreeFormSelection = z.strictObject({
  field_external_id: z.string().min(1),
  free_form_text: z.string(),
});
export const ExternalSelection = z.union([OptionSelection, FreeFormSelection]);
export type ExternalSelection = z.infer<typeof ExternalSelection>;

/** docs/platform.md F18: selections by remote (external) ids. */
export const ExternalCodingBody = z.strictObject({
  object_type: CodingObjectType,
  object_id: z.string().min(1),
  accounting_field_selections: z.array(ExternalSelection).min(1),
});

/**
 * docs/platform.md F35: selections by platform ids (svc_id). An option is named by
 * `field_option_id` (the svc_id of a GL account, accounting vendor, custom-field option or tax
 * code option: svc_ids are unique, so the field is implied); `field_id` is optional beside it and
 * must then be the option's field (a custom field's or the tax code field's svc_id, or `Category`
 * / `Merchant` for GL accounts and accounting vendors). Free text names the field:
 * `{field_id, free_form_text}`.
 */
const PlatformOptionSelection = z.strictObject({
  field_id: z.string().min(1).optional(),
  field_option_id: z.string().min(1),
});
const PlatformFreeFormSelection = z.strictObject({
  field_id: z.string().min(1),
  free_form_text: z.string(),
});
export const PlatformSelection = z.union([PlatformOptionSelection, PlatformFreeFormSelection]);
export type PlatformSelection = z.infer<typeof PlatformSelection>;

export const PlatformCodingBody = z.strictObject({
  object_type: CodingObjectType,
  object_id: z.string().min(1),
  accounting_coding_selections: z.array(PlatformSelection).min(1),
});

/** Either form; the handler picks by which list is present (F18 when neither). */
export const CodingBody = z.union([ExternalCodingBody, PlatformCodingBody]);
export type CodingBody = z.infer<typeof CodingBody>;

// ---------------------------------------------------------------- webhooks (F31)

/**
 * POST /webhooks/mock-webhook-event (docs/platform.md F31): an event of a type the stub accepts
 * subscriptions for, sent to every active subscription of that type. `object_id` becomes
 * `object.id` (default: a fresh uuid); `object_metadata` is merged into `object`.
 */
export const MockWebhookEventBody = z.strictObject({
  event_type: z.string().min(1),
  object_id: z.string().min(1).optional(),
  object_metadata: z.record(z.string(), z.unknown()).optional(),
});
export type MockWebhookEventBody = z.infer<typeof MockWebhookEventBody>;
