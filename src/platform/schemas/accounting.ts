import { z } from 'zod';
import { RemoteId, SvcId, Timestamp } from './common.ts';

/**
 * Accounting connection (PLATFORM-FACTS F6, F7; spec 001 "Accounting connection") and the
 * chart-of-accounts uploads (F8-F12). Tax shapes (F13) live in tax.ts and are re-exported here.
 */
export * from './tax.ts';

/** Upload batches are 1..500 items (spec 001 Limits). */
export const UPLOAD_BATCH_MAX = 500;

// ---------------------------------------------------------------- connection (F6, F7)

export const ConnectionType = z.enum(['API', 'CSV', 'DIRECT']);
export type ConnectionType = z.infer<typeof ConnectionType>;

export const ConnectionStatus = z.enum(['linked', 'unlinked']);
export type ConnectionStatus = z.infer<typeof ConnectionStatus>;

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

export const AccountingConnection = z.object({
  id: SvcId,
  connection_type: z.string(),
  created_at: Timestamp,
  is_active: z.boolean(),
  is_ready_to_migrate: z.boolean(),
  last_linked_at: Timestamp.nullable(),
  remote_provider_name: z.string(),
  settings: ConnectionSettings,
  status: z.string(),
  default_bill_pay_payment_account_id: z.string().nullable().optional(),
});
export type AccountingConnection = z.infer<typeof AccountingConnection>;

/** POST /accounting/connection (F6). */
export const CreateConnectionRequest = z.strictObject({
  remote_provider_name: z.string().min(1),
  is_active: z.boolean().optional(),
  settings: ConnectionSettingsInput.optional(),
});
export type CreateConnectionRequest = z.infer<typeof CreateConnectionRequest>;

/** PATCH /accounting/connection/{id}: settings (spec 001: sync-button flags, vendor credits). */
export const PatchConnectionRequest = z.strictObject({
  settings: ConnectionSettingsInput.optional(),
  remote_provider_name: z.string().min(1).optional(),
  default_bill_pay_payment_account_id: z.string().nullable().optional(),
});
export type PatchConnectionRequest = z.infer<typeof PatchConnectionRequest>;

export const AllConnectionsResponse = z.object({ connections: z.array(AccountingConnection) });
export type AllConnectionsResponse = z.infer<typeof AllConnectionsResponse>;

// ---------------------------------------------------------------- shared item fields

export const Visibility = z.enum(['VISIBLE', 'HIDDEN']);
export type Visibility = z.infer<typeof Visibility>;

const ItemCommon = {
  svc_id: SvcId,
  is_active: z.boolean(),
  created_at: Timestamp.optional(),
  updated_at: Timestamp.optional(),
};

/** Optional `accounting_connection_id` on every upload (F8-F13; spec 001 migration rule 5). */
const Target = { accounting_connection_id: z.string().min(1).optional() };

/** F12: PATCH by svc_id. */
export const PatchItemRequest = z.strictObject({
  name: z.string().min(1).optional(),
  code: z.string().nullable().optional(),
  reactivate: z.literal(true).optional(),
  visibility: Visibility.optional(),
});
export type PatchItemRequest = z.infer<typeof PatchItemRequest>;

// ---------------------------------------------------------------- GL accounts (F8)

export const GlClassification = z.enum([
  'ANY',
  'ASSET',
  'CREDCARD',
  'EQUITY',
  'EXPENSE',
  'LIABILITY',
  'REVENUE',
  'UNKNOWN',
]);
export type GlClassification = z.infer<typeof GlClassification>;

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
  code: z.string().nullable(),
  classification: z.string(),
  visibility: z.string(),
});
export type GlAccount = z.infer<typeof GlAccount>;

export const UploadGlAccountsResponse = z.object({
  accounting_connection_id: SvcId,
  gl_accounts: z.array(GlAccount),
});
export type UploadGlAccountsResponse = z.infer<typeof UploadGlAccountsResponse>;

export const PatchGlAccountRequest = PatchItemRequest.extend({ classification: GlClassification.optional() });
export type PatchGlAccountRequest = z.infer<typeof PatchGlAccountRequest>;

// ---------------------------------------------------------------- custom fields (F9)

export const FieldInputType = z.enum(['BOOLEAN', 'FREE_FORM_TEXT', 'SINGLE_CHOICE', 'DATE']);
export type FieldInputType = z.infer<typeof FieldInputType>;

/** F9: one field per call; posting an existing `id` returns (and reactivates) it. */
export const CreateFieldRequest = z.strictObject({
  ...Target,
  id: RemoteId,
  name: z.string().min(1),
  input_type: FieldInputType,
  display_name: z.string().nullable().optional(),
  is_splittable: z.boolean().optional(),
  is_required_for: z.array(z.string()).optional(),
});
export type CreateFieldRequest = z.infer<typeof CreateFieldRequest>;

export const Field = z.object({
  id: z.string(),
  ...ItemCommon,
  name: z.string(),
  input_type: z.string(),
  display_name: z.string().nullable().optional(),
  is_splittable: z.boolean().optional(),
  is_required_for: z.array(z.string()).optional(),
  accounting_connection_id: SvcId.optional(),
});
export type Field = z.infer<typeof Field>;

export const PatchFieldRequest = z.strictObject({
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
  display_name: z.string().nullable(),
  code: z.string().nullable(),
  visibility: z.string(),
  field_id: SvcId.optional(),
  field_remote_id: z.string().optional(),
});
export type FieldOption = z.infer<typeof FieldOption>;

export const UploadFieldOptionsResponse = z.object({
  accounting_connection_id: SvcId,
  options: z.array(FieldOption),
});
export type UploadFieldOptionsResponse = z.infer<typeof UploadFieldOptionsResponse>;

/** F12: options may also change `value` and `display_name`. */
export const PatchFieldOptionRequest = PatchItemRequest.extend({
  value: z.string().min(1).optional(),
  display_name: z.string().nullable().optional(),
});
export type PatchFieldOptionRequest = z.infer<typeof PatchFieldOptionRequest>;

/** PUT /accounting/field-options/{id} (spec 001): update an option. */
export const PutFieldOptionRequest = z.strictObject({
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
  code: z.string().nullable(),
  is_synced: z.boolean().optional(),
  accounting_connection_id: SvcId.optional(),
});
export type AccountingVendor = z.infer<typeof AccountingVendor>;

export const UploadVendorsResponse = z.object({
  accounting_connection_id: SvcId.optional(),
  vendors: z.array(AccountingVendor),
});
export type UploadVendorsResponse = z.infer<typeof UploadVendorsResponse>;

export const PatchAccountingVendorRequest = z.strictObject({
  name: z.string().min(1).optional(),
  code: z.string().nullable().optional(),
  reactivate: z.literal(true).optional(),
});
export type PatchAccountingVendorRequest = z.infer<typeof PatchAccountingVendorRequest>;

// ---------------------------------------------------------------- list queries (spec 001 GET)

const ListCommon = {
  start: z.string().min(1).optional(),
  page_size: z.coerce.number().int().min(2).max(100).default(20),
  accounting_connection_id: z.string().min(1).optional(),
  entity_id: z.string().min(1).optional(),
  is_active: z.enum(['true', 'false']).optional(),
  code: z.string().optional(),
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
