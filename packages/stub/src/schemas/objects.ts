import { z } from 'zod';
import { PageQuery } from '../../../../src/platform/schemas/common.ts';

/**
 * The ready objects the stub serves, in the stub's own schemas (not the client's readers in
 * src/platform/schemas, which accept several shapes). Each object is a superset: every field the
 * platform guide names stays (docs/platform.md F16, F17, G3 and G22),
 * and every field the published API reference requires is added (docs/platform.md F23–F26).
 * Where the two disagree on one field, the published form is served. The types of the
 * generators (src/stub/world/generate-*.ts) and the OpenAPI document (/openapi.json) come from
 * these schemas.
 */

const Id = z.string();
/** ISO 8601 date-time. */
const Time = z.string();
/** ISO 8601 date (YYYY-MM-DD), where the published reference says `format: date`. */
const DateOnly = z.string();
const Text = z.string().nullable();
/**
 * docs/platform.md F36: a field both published copies make optional and never null. The live
 * service leaves it out, and so does the stub.
 */
const OptionalText = z.string().optional();

/**
 * docs/platform.md F22: `{amount: integer minor units, currency_code}`, plus the 2026 reference's
 * `minor_unit_conversion_rate` (minor units per major unit: USD 100, JPY 1, KWD 1000).
 */
export const CurrencyAmount = z.object({
  amount: z.number().int(),
  currency_code: z.string(),
  minor_unit_conversion_rate: z.number().int().nullable(),
});
export type CurrencyAmount = z.infer<typeof CurrencyAmount>;

/**
 * docs/platform.md F22: `{currency, value}` with `value` in minor units, as production clients see
 * `entity_amount` and `merchant_amount` (the guide says only "minor units plus a currency code").
 */
export const ValueAmount = z.object({ currency: z.string(), value: z.number().int() });
export type ValueAmount = z.infer<typeof ValueAmount>;

// ---------------------------------------------------------------- field selections

/** Field external ids of the accounting-vendor and GL selections (docs/platform.md F18). */
export const MERCHANT_FIELD_EXTERNAL_ID = 'Merchant';
export const GL_FIELD_EXTERNAL_ID = 'Category';

/**
 * Field types of the published reference, plus NON_ERP and UNIT_OF_MEASURE seen on reimbursements
 * (docs/platform.md F24). The stub itself writes GL_ACCOUNT, MERCHANT, TAX_CODE and OTHER (F16).
 */
const SELECTION_TYPES = [
  'AMORTIZATION_TEMPLATE',
  'BILLABLE',
  'COST_CENTER',
  'CUSTOMERS_JOBS',
  'DEFERRAL_CODE',
  'EXPENSE_ENTITY',
  'GL_ACCOUNT',
  'INVENTORY_ITEM',
  'JOURNAL',
  'MERCHANT',
  'NON_ERP',
  'OTHER',
  'PROJECT',
  'REPORTING_TAG',
  'SUBSIDIARY',
  'TAX_CODE',
  'UNIT_OF_MEASURE',
] as const;
const SelectionType = z.enum(SELECTION_TYPES);

/** The field a selection belongs to (docs/platform.md F16); on bills the only place of `type` (F26). */
export const CategoryInfo = z.object({
  id: Id,
  external_id: z.string(),
  name: z.string(),
  type: SelectionType,
});
export type CategoryInfo = z.infer<typeof CategoryInfo>;

/** Published `source` of a selection: who added it. The stub does not know and leaves it out (F36). */
const SelectionSource = z.object({ type: z.string() });

/**
 * One coding of a transaction, transfer or cashback (docs/platform.md F16): the guide's `{id,
 * external_id, name, type, category_info}` plus the published `external_code` (the uploaded
 * item's code, absent when it has none), `provider_name` (the connection's provider, required and
 * never null in the 2026 copy) and `source` (absent: the stub does not record it), as F36 says.
 * `external_id` is the ERP's remote id.
 */
export const FieldSelection = z.object({
  id: Id,
  external_id: z.string(),
  external_code: OptionalText,
  name: z.string(),
  type: SelectionType,
  provider_name: z.string(),
  source: SelectionSource.optional(),
  category_info: CategoryInfo,
});
export type FieldSelection = z.infer<typeof FieldSelection>;

/** docs/platform.md F24: on reimbursements every key is present and any may be null. */
export const ReimbursementFieldSelection = z.object({
  id: Id.nullable(),
  external_id: Text,
  external_code: Text,
  name: Text,
  type: SelectionType.nullable(),
  provider_name: Text,
  source: SelectionSource.nullable(),
  category_info: z
    .object({ id: Text, external_id: Text, name: Text, type: SelectionType.nullable() })
    .nullable(),
});
export type ReimbursementFieldSelection = z.infer<typeof ReimbursementFieldSelection>;

/**
 * docs/platform.md F26: bill selections have no top-level `type` (it is in `category_info`);
 * `external_code` is null when the item has no code (F36 names it only on transactions).
 */
export const BillFieldSelection = FieldSelection.omit({ type: true, source: true }).extend({
  external_code: Text,
});
export type BillFieldSelection = z.infer<typeof BillFieldSelection>;

/** Either form, as the sync and coding rules read them (`type` only where F16 puts it). */
export type AnySelection = Omit<BillFieldSelection, 'external_code'> & {
  type?: string | null;
  external_code?: string | null;
};

// ---------------------------------------------------------------- sync statuses (F16)

export const TransactionSyncStatus = z.enum(['NOT_SYNC_READY', 'SYNC_READY', 'SYNCED']);
export type TransactionSyncStatus = z.infer<typeof TransactionSyncStatus>;

export const BillSyncStatus = z.enum(['NOT_SYNCED', 'BILL_SYNCED', 'BILL_AND_PAYMENT_SYNCED']);
export type BillSyncStatus = z.infer<typeof BillSyncStatus>;

// ---------------------------------------------------------------- transactions (F16, F17, F23)

/** Published transaction states (docs/platform.md F28 `state` filter); the stub writes CLEARED. */
const TRANSACTION_STATES = [
  'ALL',
  'CLEARED',
  'COMPLETION',
  'DECLINED',
  'ERROR',
  'PENDING',
  'PENDING_INITIATION',
] as const;

/** Published transaction approval statuses (docs/platform.md F28 `approval_status` filter). */
const TRANSACTION_APPROVAL_STATUSES = [
  'AWAITING_EMPLOYEE',
  'AWAITING_EMPLOYEE_CHANGES_REQUESTED',
  'AWAITING_EMPLOYEE_MISSING_ITEMS',
  'AWAITING_EMPLOYEE_REPAYMENT_FAILED',
  'AWAITING_EMPLOYEE_REPAYMENT_REQUESTED',
  'AWAITING_REVIEWER',
  'FULLY_APPROVED',
] as const;

/**
 * docs/platform.md F23: a line of a transaction. `amount` is a CurrencyAmount in the transaction's
 * currency, `converted_amount` the same line in the entity's currency; `id` (nullable) is the
 * platform guide's split-line id.
 */
export const TransactionLineItem = z.object({
  id: Text,
  amount: CurrencyAmount,
  converted_amount: CurrencyAmount,
  /** F36: absent rather than null. */
  memo: OptionalText,
  accounting_field_selections: z.array(FieldSelection),
});
export type TransactionLineItem = z.infer<typeof TransactionLineItem>;

/** F36: `employee_id`, `location_id` and `location_name` are absent rather than null. */
const CardHolder = z.object({
  user_id: Id,
  first_name: z.string(),
  last_name: z.string(),
  employee_id: OptionalText,
  department_id: Id.nullable(),
  department_name: Text,
  location_id: OptionalText,
  location_name: OptionalText,
});

/** docs/platform.md F23: card acceptor location, or null when the network sent none. */
const MerchantLocation = z.object({
  city: Text,
  country: Text,
  postal_code: Text,
  state: Text,
});

export const Transaction = z.object({
  id: Id,
  /** docs/platform.md F16: major units beside `currency_code`; negative for refunds. */
  amount: z.number(),
  currency_code: z.string(),
  /** Signed settlement amount in minor units (the entity's currency), in the F22 value form. */
  entity_amount: ValueAmount,
  /** Signed original charge in minor units (the merchant's currency), in the F22 value form. */
  merchant_amount: ValueAmount,
  /** docs/platform.md F23: the amount before currency conversion (the merchant's charge). */
  original_transaction_amount: CurrencyAmount.nullable(),
  /** docs/platform.md F23: 10^exponent of `currency_code` (USD 100, JPY 1, KWD 1000). */
  minor_unit_conversion_rate: z.number().int().nullable(),
  entity_id: Id.nullable(),
  merchant_id: Id.nullable(),
  merchant_name: Text,
  merchant_descriptor: Text,
  merchant_category_code: Text,
  merchant_category_code_description: Text,
  merchant_location: MerchantLocation.nullable(),
  /** Published purchase data sent by the merchant (receipts, flight, lodging); none here (F36: absent). */
  merchant_data: z.record(z.string(), z.unknown()).optional(),
  card_present: z.boolean(),
  sk_category_id: z.number().int().nullable(),
  sk_category_name: Text,
  card_id: Id.nullable(),
  fund_id: Id.nullable(),
  /** Platform guide: deprecated alias of `fund_id` (same value). */
  limit_id: Id.nullable(),
  /** F36: absent rather than null. */
  spend_program_id: OptionalText,
  statement_id: OptionalText,
  card_holder: CardHolder.nullable(),
  user_transaction_time: Time,
  settlement_date: Time.nullable(),
  accounting_date: Time.nullable(),
  updated_at: Time,
  state: z.enum(TRANSACTION_STATES),
  memo: Text,
  receipts: z.array(Id),
  /** Published lists the stub keeps empty (`accounting_categories` is deprecated). */
  accounting_categories: z.array(z.unknown()),
  attendees: z.array(z.object({ name: z.string(), user_id: Id.nullable() })),
  disputes: z.array(z.unknown()),
  policy_violations: z.array(z.unknown()),
  original_transaction_id: Id.nullable(),
  all_requirements_met_and_approved: z.boolean(),
  trip_id: Id.nullable(),
  trip_name: Text,
  accounting_field_selections: z.array(FieldSelection),
  line_items: z.array(TransactionLineItem),
  sync_status: TransactionSyncStatus,
  synced_at: Time.nullable(),
  /** docs/platform.md F17: present only with the vendor-creation setting on. */
  requires_accounting_vendor_creation_to_sync: z.boolean().optional(),
});
export type Transaction = z.infer<typeof Transaction>;

// ---------------------------------------------------------------- reimbursements (F24)

/** docs/platform.md F24: the line `amount` is a CurrencyAmount (or null). */
export const ReimbursementLineItem = z.object({
  id: Text,
  amount: CurrencyAmount.nullable(),
  memo: Text,
  accounting_field_selections: z.array(ReimbursementFieldSelection),
});
export type ReimbursementLineItem = z.infer<typeof ReimbursementLineItem>;

export const Reimbursement = z.object({
  id: Id,
  /** Major units (platform guide and published reference), beside `currency`. */
  amount: z.number(),
  /** docs/platform.md F24: `currency`, not `currency_code`. */
  currency: z.string(),
  /** docs/platform.md F22: the amount in the entity's currency, as production clients see it. */
  entity_amount: ValueAmount,
  original_reimbursement_amount: CurrencyAmount.nullable(),
  payee_amount: CurrencyAmount.nullable(),
  entity_id: Id.nullable(),
  user_id: Id,
  user_full_name: z.string(),
  user_email: z.string(),
  employee_id: Text,
  merchant: Text,
  merchant_name: Text,
  merchant_id: Id.nullable(),
  type: z.enum(['MILEAGE', 'OUT_OF_POCKET', 'PAYBACK_FULL', 'PAYBACK_PARTIAL', 'PER_DIEM']),
  direction: z.enum(['BUSINESS_TO_USER', 'USER_TO_BUSINESS']),
  state: z.string(),
  distance: z.number().nullable(),
  start_location: Text,
  end_location: Text,
  waypoints: z.array(z.string()),
  /** Published `format: date`. */
  transaction_date: DateOnly.nullable(),
  created_at: Time,
  submitted_at: Time.nullable(),
  approved_at: Time.nullable(),
  accounting_date: Time.nullable(),
  payment_id: Text,
  payment_batch_id: Id.nullable(),
  payment_processed_at: Time.nullable(),
  trace_id: z.object({ descriptor: z.string(), trace_id: z.string() }).nullable(),
  spend_limit_id: Id.nullable(),
  /** Platform guide: `spend_limit_id` is deprecated in favour of `fund_id` (same value). */
  fund_id: Id.nullable(),
  trip_id: Id.nullable(),
  receipts: z.array(Id),
  attendees: z.array(z.object({ name: z.string(), user_id: Id.nullable() })),
  updated_at: Time,
  memo: Text,
  accounting_field_selections: z.array(ReimbursementFieldSelection),
  line_items: z.array(ReimbursementLineItem),
  sync_status: TransactionSyncStatus,
  synced_at: Time.nullable(),
});
export type Reimbursement = z.infer<typeof Reimbursement>;

// ---------------------------------------------------------------- transfers, cashbacks (F25)

const TRANSFER_STATUSES = [
  'ACH_CONFIRMED',
  'CANCELED',
  'COMPLETED',
  'ERROR',
  'INITIATED',
  'NOT_ACKED',
  'NOT_ENOUGH_FUNDS',
  'PROCESSING_BY_ODFI',
  'REJECTED_BY_ODFI',
  'RETURNED_BY_RDFI',
  'SUBMITTED_TO_FED',
  'SUBMITTED_TO_RDFI',
  'UNNECESSARY',
  'UPLOADED',
] as const;

/** docs/platform.md F25: `amount` is a CurrencyAmount; no top-level currency. */
export const Transfer = z.object({
  id: Id,
  amount: CurrencyAmount,
  entity_id: Id.nullable(),
  bank_account_id: Id.nullable(),
  payment_id: z.string(),
  status: z.enum(TRANSFER_STATUSES),
  created_at: Time,
  memo: Text,
  accounting_field_selections: z.array(FieldSelection),
  sync_status: TransactionSyncStatus,
  synced_at: Time.nullable(),
});
export type Transfer = z.infer<typeof Transfer>;

export const Cashback = z.object({
  id: Id,
  amount: CurrencyAmount,
  entity_id: Id.nullable(),
  created_at: Time,
  memo: Text,
  accounting_field_selections: z.array(FieldSelection),
  sync_status: TransactionSyncStatus,
  synced_at: Time.nullable(),
});
export type Cashback = z.infer<typeof Cashback>;

// ---------------------------------------------------------------- bills (F16, F26)

const BILL_APPROVAL_STATUSES = ['APPROVED', 'INITIALIZED', 'PENDING', 'REJECTED', 'TERMINATED'] as const;
const BILL_PAYMENT_STATUSES = ['OPEN', 'PAID'] as const;

export const BillLineItem = z.object({
  id: Text,
  amount: CurrencyAmount,
  /** F36: absent rather than null. */
  memo: OptionalText,
  accounting_field_selections: z.array(BillFieldSelection),
  purchase_order_line_item_id: Id.nullable(),
  item_receipt_line_item_ids: z.array(Id),
});
export type BillLineItem = z.infer<typeof BillLineItem>;

/** Published payment details of a vendor payment (`schema_type` names the variant). */
const BillPaymentDetails = z.object({
  schema_type: z.literal('VendorPaymentDetailsSchema'),
  approval_status: z.enum(BILL_APPROVAL_STATUSES).nullable(),
  source_bank_account_id: Id.nullable(),
  vendor_account_id: Id.nullable(),
  is_same_day: z.boolean(),
});

/**
 * docs/platform.md F26: `amount`, `payment_date`, `payment_method`, `effective_date`.
 * docs/platform.md F38: the 2026 copy requires the key `id` (its value may be null); the stub has
 * no payment id to give and sends null. `customer_friendly_payment_id` is the platform guide's;
 * `details` and `trace_id` the reference's.
 */
export const BillPayment = z.object({
  id: Id.nullable(),
  amount: CurrencyAmount,
  payment_date: Time.nullable(),
  effective_date: Time.nullable(),
  payment_method: z.string().nullable(),
  customer_friendly_payment_id: Text,
  details: BillPaymentDetails,
  trace_id: z.object({ descriptor: z.string(), trace_id: z.string() }).nullable(),
});
export type BillPayment = z.infer<typeof BillPayment>;

/**
 * docs/platform.md F26: `remote_id` is the ERP vendor id (the accounting vendor the platform vendor
 * is linked to); `accounting_vendor_remote_id` carries the same value under the stub's older name.
 * F36: an unlinked vendor has no `remote_id`, `remote_code` or `remote_name` (absent, not null).
 */
const BillVendor = z.object({
  id: Id,
  name: z.string(),
  remote_id: OptionalText,
  remote_code: OptionalText,
  remote_name: OptionalText,
  accounting_vendor_remote_id: OptionalText,
  type: z.enum(['BUSINESS', 'INDIVIDUAL']),
});

export const Bill = z.object({
  id: Id,
  /** The ERP's id of the bill: the reference_id of its last BILL_SYNC, null before. */
  remote_id: Text,
  invoice_number: Text,
  invoice_urls: z.array(z.string()),
  vendor_id: Id.nullable(),
  vendor: BillVendor.nullable(),
  vendor_contact_id: Id.nullable(),
  entity_id: Id.nullable(),
  bill_owner: z.object({ id: Id, first_name: z.string(), last_name: z.string() }),
  amount: CurrencyAmount,
  fx_conversion_rate: z.string(),
  status: z.enum(BILL_PAYMENT_STATUSES),
  payment_status: z.enum(BILL_PAYMENT_STATUSES),
  /** One of BILL_STATUS_SUMMARIES here; the live service has more values. */
  status_summary: z.string(),
  approval_status: z.enum(BILL_APPROVAL_STATUSES),
  sync_status: BillSyncStatus,
  enable_accounting_sync: z.boolean(),
  issued_at: Time,
  due_at: Time,
  paid_at: Time.nullable(),
  created_at: Time,
  accounting_date: Time,
  /** F36: absent rather than null. */
  posting_date: Time.optional(),
  archived_at: Time.nullable(),
  draft_bill_id: Id.nullable(),
  draft_bill_created_at: Time.nullable(),
  item_receipt_ids: z.array(Id),
  applied_vendor_credits: z.array(z.unknown()),
  /** F36: `memo` and `vendor_memo` are absent rather than null. */
  memo: OptionalText,
  vendor_memo: OptionalText,
  accounting_field_selections: z.array(BillFieldSelection),
  line_items: z.array(BillLineItem),
  inventory_line_items: z.array(z.unknown()),
  payment: BillPayment.nullable(),
  deep_link_url: Text,
});
export type Bill = z.infer<typeof Bill>;

// ---------------------------------------------------------------- list queries (F4, F16, F28)

/**
 * Query booleans: `true` / `false` in any case (also `1` / `0`); anything else is 422. Unknown
 * query parameters are ignored (z.object strips them), as the live service does (F28).
 */
const QueryFlag = z
  .string()
  .transform((v) => v.toLowerCase())
  .pipe(z.enum(['true', 'false', '1', '0']))
  .transform((v) => v === 'true' || v === '1');

const Paging = PageQuery.shape;
const optionalText = z.string().optional();

/**
 * GET /transactions: the platform guide's filters (F16: sync_status,
 * requested_to_sync, synced_after, from/to dates, updated_after, entity_id) and the published
 * ones (docs/platform.md F28). `sync_status` supersedes `sync_ready` and `has_no_sync_commits`.
 */
export const ListTransactionsQuery = z.object({
  ...Paging,
  sync_status: TransactionSyncStatus.optional(),
  sync_ready: QueryFlag.optional(),
  has_no_sync_commits: QueryFlag.optional(),
  /** Platform guide's singular spelling of `has_no_sync_commits` (docs/platform.md F28). */
  has_no_sync_commit: QueryFlag.optional(),
  requested_to_sync: QueryFlag.optional(),
  state: z.enum(TRANSACTION_STATES).optional(),
  approval_status: z.enum(TRANSACTION_APPROVAL_STATUSES).optional(),
  synced_after: optionalText,
  from_date: optionalText,
  to_date: optionalText,
  updated_after: optionalText,
  entity_id: optionalText,
  limit_id: optionalText,
  include_functional_currency_amount: QueryFlag.optional(),
});
export type ListTransactionsQuery = z.infer<typeof ListTransactionsQuery>;

/**
 * GET /reimbursements: the transaction filters without the card-only ones (`state`,
 * `approval_status`, `limit_id`, the functional-currency flag), which are ignored here like any
 * unknown parameter.
 */
export const ListReimbursementsQuery = ListTransactionsQuery.omit({
  state: true,
  approval_status: true,
  limit_id: true,
  include_functional_currency_amount: true,
});
export type ListReimbursementsQuery = z.infer<typeof ListReimbursementsQuery>;

/** GET /transfers and /cashbacks (docs/platform.md F28: sync_ready, has_no_sync_commits). */
export const ListSimpleObjectsQuery = z.object({
  ...Paging,
  sync_status: TransactionSyncStatus.optional(),
  sync_ready: QueryFlag.optional(),
  has_no_sync_commits: QueryFlag.optional(),
  has_no_sync_commit: QueryFlag.optional(),
  synced_after: optionalText,
  from_date: optionalText,
  to_date: optionalText,
  entity_id: optionalText,
});
export type ListSimpleObjectsQuery = z.infer<typeof ListSimpleObjectsQuery>;

/**
 * GET /bills: the platform guide's filters (sync_ready, sync_status, status, from_created_at,
 * remote_id, vendor_id, is_accounting_sync_enabled, entity_id) and the published ones
 * (docs/platform.md F28: payment_status, approval_status, status_summary). On bills the guide
 * combines `sync_status` with `sync_ready` (payment-only candidates: BILL_SYNCED and ready).
 */
export const ListBillsQuery = z.object({
  ...Paging,
  sync_ready: QueryFlag.optional(),
  sync_status: BillSyncStatus.optional(),
  status: z.enum(BILL_PAYMENT_STATUSES).optional(),
  payment_status: z.enum(BILL_PAYMENT_STATUSES).optional(),
  approval_status: z.enum(BILL_APPROVAL_STATUSES).optional(),
  status_summary: z.string().min(1).optional(),
  from_created_at: optionalText,
  entity_id: optionalText,
  remote_id: optionalText,
  vendor_id: optionalText,
  is_accounting_sync_enabled: QueryFlag.optional(),
});
export type ListBillsQuery = z.infer<typeof ListBillsQuery>;
