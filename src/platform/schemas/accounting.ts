import { z } from 'zod';
import { ActiveFlag, RemoteId, SvcId, Timestamp } from './common.ts';

/**
 * Accounting connection (docs/platform.md F6, F7, G13) and the
 * chart-of-accounts uploads (F8-F12). Tax shapes (F13) live in tax.ts and are re-exported here.
 */
export * from './tax.ts';

/** Upload batches are 1..500 items (docs/platform.md G9). */
const UPLOAD_BATCH_MAX = 500;

// ---------------------------------------------------------------- connection (F6, F7)

export const ConnectionType = z.enum(['API', 'CSV', 'DIRECT']);
export type ConnectionType = z.infer<typeof ConnectionType>;

/** F6: five booleans, all default false. */
export const ConnectionSettings = z.object({
  entity_selection_enabled: z.boolean().default(false),
  reimbursement_sync_button_enabled: z.boolean().default(false),
  transaction_accounting_vendor_creation_on_sync_enabled: z.boolean().default(false),
  transaction_sync_button_enabled: z.boolean().default(false),
  vendor_credits_enabled: z.boolean().default(false),
});
export type ConnectionSettings = z.infer<typeof ConnectionSettings>;

export const SETTING_NAMES = Object.keys(ConnectionSettings.shape) as Array<keyof ConnectionSettings>;

/** Settings as sent in a request: any subset, nothing else (F5). */
export const ConnectionSettingsInput = z.strictObject({
  entity_selection_enabled: z.boolean().optional(),
  reimbursement_sync_button_enabled: z.boolean().optional(),
  transaction_accounting_vendor_creation_on_sync_enabled: z.boolean().optional(),
  transaction_sync_button_enabled: z.boolean().optional(),
  vendor_credits_enabled: z.boolean().optional(),
});
export type ConnectionSettingsInput = z.infer<typeof ConnectionSettingsInput>;

/**
 * A connection as read (docs/platform.md F6, F22): what the worker decides by is required (type,
 * activity, creation time); the rest may be absent or null (a CSV connection's `settings` is null,
 * read as all off). `remote_provider_name` may be null (F37): read as null, "not given".
 */
export const AccountingConnection = z.object({
  id: SvcId,
  connection_type: z.string(),
  created_at: Timestamp,
  is_active: z.boolean(),
  is_ready_to_migrate: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  last_linked_at: Timestamp.nullish(),
  remote_provider_name: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  settings: ConnectionSettings.nullish().transform((settings) => settings ?? ConnectionSettings.parse({})),
  status: z.string().nullish(),
  default_bill_pay_payment_account_id: z.string().nullish(),
});
export type AccountingConnection = z.infer<typeof AccountingConnection>;

/** POST /accounting/connection (F6). */
export const CreateConnectionRequest = z.strictObject({
  remote_provider_name: z.string().min(1),
  is_active: z.boolean().optional(),
  settings: ConnectionSettingsInput.optional(),
});
export type CreateConnectionRequest = z.infer<typeof CreateConnectionRequest>;

/** PATCH /accounting/connection/{id}: settings (docs/platform.md G13: sync-button flags, vendor credits). */
export const PatchConnectionRequest = z.strictObject({
  settings: ConnectionSettingsInput.optional(),
  remote_provider_name: z.string().min(1).optional(),
  default_bill_pay_payment_account_id: z.string().nullable().optional(),
});
export type PatchConnectionRequest = z.infer<typeof PatchConnectionRequest>;

export const AllConnectionsResponse = z.object({ connections: z.array(AccountingConnection) });
export type AllConnectionsResponse = z.infer<typeof AllConnectionsResponse>;

// ---------------------------------------------------------------- shared item fields

const Visibility = z.enum(['VISIBLE', 'HIDDEN']);

/**
 * Fields every chart item answer is read with. Readers are tolerant (docs/platform.md F22): only
 * `id` and `svc_id` are required; an absent `is_active` means active.
 */
const optionalText = z.string().nullish();

const ItemCommon = {
  svc_id: SvcId,
  is_active: ActiveFlag,
  created_at: optionalText,
  updated_at: optionalText,
};

/** Optional `accounting_connection_id` on every upload (docs/platform.md F8-F13, G30). */
const Target = { accounting_connection_id: z.string().min(1).optional() };

/**
 * F12, F29: PATCH by svc_id; the target connection goes in the JSON body, never the query.
 */
const PatchItemRequest = z.strictObject({
  ...Target,
  name: z.string().min(1).optional(),
  code: z.string().nullable().optional(),
  reactivate: z.literal(true).optional(),
  visibility: Visibility.optional(),
});

// ---------------------------------------------------------------- GL accounts (F8)

const GlClassification = z.enum([
  'ANY',
  'ASSET',
  'CREDCARD',
  'EQUITY',
  'EXPENSE',
  'LIABILITY',
  'REVENUE',
  'UNKNOWN',
]);

/** F8: `code` may be "" (an account without a code). */
export const GlAccountInput = z.strictObject({
  id: RemoteId,
  name: z.string().min(1),
  classification: GlClassification,
  code: z.string().nullable().optional(),
});
export type GlAccountInput = z.infer<typeof GlAccountInput>;

export const UploadGlAccountsRequest = z.strictObject({
  ...Target,
  gl_accounts: z.array(GlAccountInput).min(1).max(UPLOAD_BATCH_MAX),
});
export type UploadGlAccountsRequest = z.infer<typeof UploadGlAccountsRequest>;

export const GlAccount = z.object({
  id: z.string(),
  ...ItemCommon,
  name: z.string(),
  code: optionalText,
  classification: optionalText,
  visibility: optionalText,
});
export type GlAccount = z.infer<typeof GlAccount>;

export const UploadGlAccountsResponse = z.object({
  accounting_connection_id: SvcId,
  gl_accounts: z.array(GlAccount),
});
export type UploadGlAccountsResponse = z.infer<typeof UploadGlAccountsResponse>;

/**
 * F30: a GL account's PATCH takes name, code ("" resets it), reactivate and the connection;
 * `classification` is refused as an unknown field, so it is fixed at upload. Visibility stays
 * because the platform guide names HIDDEN for GL accounts.
 */
export const PatchGlAccountRequest = PatchItemRequest;
export type PatchGlAccountRequest = z.infer<typeof PatchGlAccountRequest>;

// ---------------------------------------------------------------- custom fields (F9)

/** F34: the input types POST /accounting/fields accepts. */
const CreatableFieldInputType = z.enum(['BOOLEAN', 'FREE_FORM_TEXT', 'SINGLE_CHOICE']);

/** F34: the objects a field can be required for. */
const RequiredFor = z.enum([
  'BILL',
  'BILL_PAYMENT',
  'INVOICE',
  'PURCHASE_ORDER',
  'REIMBURSEMENT',
  'SPEND_PROGRAM',
  'TRANSACTION',
  'TRANSFER_LEDGER_ENTRY_MAPPING',
  'VENDOR_CREDIT',
]);

/** F9, F34: one field per call; posting an existing `id` returns (and reactivates) it. */
export const CreateFieldRequest = z.strictObject({
  ...Target,
  id: RemoteId,
  name: z.string().min(1),
  input_type: CreatableFieldInputType,
  display_name: z.string().nullable().optional(),
  is_splittable: z.boolean().optional(),
  is_required_for: z.array(RequiredFor).optional(),
});
export type CreateFieldRequest = z.infer<typeof CreateFieldRequest>;

export const Field = z.object({
  id: z.string(),
  ...ItemCommon,
  name: z.string(),
  input_type: optionalText,
  display_name: optionalText,
  accounting_connection_id: optionalText,
});
export type Field = z.infer<typeof Field>;

export const PatchFieldRequest = z.strictObject({
  ...Target,
  name: z.string().min(1).optional(),
  display_name: z.string().nullable().optional(),
  is_splittable: z.boolean().optional(),
  reactivate: z.literal(true).optional(),
});
export type PatchFieldRequest = z.infer<typeof PatchFieldRequest>;

// ---------------------------------------------------------------- field options (F10)

export const FieldOptionInput = z.strictObject({
  id: RemoteId,
  value: z.string().min(1),
  code: z.string().nullable().optional(),
});
export type FieldOptionInput = z.infer<typeof FieldOptionInput>;

/** F10: `field_id` is the field's svc_id. */
export const UploadFieldOptionsRequest = z.strictObject({
  ...Target,
  field_id: SvcId,
  options: z.array(FieldOptionInput).min(1).max(UPLOAD_BATCH_MAX),
});
export type UploadFieldOptionsRequest = z.infer<typeof UploadFieldOptionsRequest>;

export const FieldOption = z.object({
  id: z.string(),
  ...ItemCommon,
  value: z.string(),
  display_name: optionalText,
  code: optionalText,
  visibility: optionalText,
  field_id: optionalText,
  field_remote_id: optionalText,
});
export type FieldOption = z.infer<typeof FieldOption>;

export const UploadFieldOptionsResponse = z.object({
  accounting_connection_id: SvcId,
  options: z.array(FieldOption),
});
export type UploadFieldOptionsResponse = z.infer<typeof UploadFieldOptionsResponse>;

/** F12, F30: options may also change `value` and `display_name`; none of the fields is required. */
export const PatchFieldOptionRequest = z.strictObject({
  ...Target,
  code: z.string().nullable().optional(),
  display_name: z.string().nullable().optional(),
  reactivate: z.literal(true).optional(),
  value: z.string().min(1).optional(),
  visibility: Visibility.optional(),
});
export type PatchFieldOptionRequest = z.infer<typeof PatchFieldOptionRequest>;

/** PUT /accounting/field-options/{id}: update an option (F30: the PATCH body, as a PUT). */
export const PutFieldOptionRequest = z.strictObject({
  ...Target,
  reactivate: z.literal(true).optional(),
  value: z.string().min(1),
  code: z.string().nullable().optional(),
  display_name: z.string().nullable().optional(),
  visibility: Visibility.optional(),
});
export type PutFieldOptionRequest = z.infer<typeof PutFieldOptionRequest>;

// ---------------------------------------------------------------- accounting vendors (F11)

export const AccountingVendorInput = z.strictObject({
  id: RemoteId,
  name: z.string().min(1),
  code: z.string().nullable().optional(),
});
export type AccountingVendorInput = z.infer<typeof AccountingVendorInput>;

export const UploadVendorsRequest = z.strictObject({
  ...Target,
  vendors: z.array(AccountingVendorInput).min(1).max(UPLOAD_BATCH_MAX),
});
export type UploadVendorsRequest = z.infer<typeof UploadVendorsRequest>;

export const AccountingVendor = z.object({
  id: z.string(),
  ...ItemCommon,
  name: z.string(),
  code: optionalText,
  accounting_connection_id: optionalText,
});
export type AccountingVendor = z.infer<typeof AccountingVendor>;

export const UploadVendorsResponse = z.object({
  accounting_connection_id: SvcId.optional(),
  vendors: z.array(AccountingVendor),
});
export type UploadVendorsResponse = z.infer<typeof UploadVendorsResponse>;

export const PatchAccountingVendorRequest = z.strictObject({
  ...Target,
  name: z.string().min(1).optional(),
  code: z.string().nullable().optional(),
  reactivate: z.literal(true).optional(),
});
export type PatchAccountingVendorRequest = z.infer<typeof PatchAccountingVendorRequest>;

// ---------------------------------------------------------------- list queries (docs/platform.md G16)

const ListCommon = {
  start: z.string().min(1).optional(),
  page_size: z.coerce.number().int().min(2).max(100).default(20),
  accounting_connection_id: z.string().min(1).optional(),
  entity_id: z.string().min(1).optional(),
  is_active: z.enum(['true', 'false']).optional(),
  code: z.string().optional(),
  /** docs/platform.md F28. */
  remote_id: z.string().min(1).optional(),
  is_synced: z.enum(['true', 'false']).optional(),
};

export const ListGlAccountsQuery = z.object({ ...ListCommon, visibility: Visibility.optional() });
export type ListGlAccountsQuery = z.infer<typeof ListGlAccountsQuery>;

export const ListFieldsQuery = z.object(ListCommon);
export type ListFieldsQuery = z.infer<typeof ListFieldsQuery>;

/** Exactly one of field_id / field_remote_id (F10); checked by the handler. */
export const ListFieldOptionsQuery = z.object({
  ...ListCommon,
  visibility: Visibility.optional(),
  field_id: z.string().min(1).optional(),
  field_remote_id: z.string().min(1).optional(),
});
export type ListFieldOptionsQuery = z.infer<typeof ListFieldOptionsQuery>;

export const ListAccountingVendorsQuery = z.object(ListCommon);
export type ListAccountingVendorsQuery = z.infer<typeof ListAccountingVendorsQuery>;
