import { z } from 'zod';
import { CurrencyCode, MinorUnitAmount, SvcId, Timestamp } from './common.ts';

/**
 * Ready objects as the ready-object reads return them (PLATFORM-FACTS F16, F17; spec 000
 * "Transaction"; spec 001 "Bill"). Responses tolerate extra fields.
 */

/** Field external ids the platform uses for the vendor and GL selections (F18). */
export const MERCHANT_FIELD_EXTERNAL_ID = 'Merchant';
export const GL_FIELD_EXTERNAL_ID = 'Category';

/** Selection types seen in accounting_field_selections (F16); others may appear. */
export const SelectionType = z.enum(['GL_ACCOUNT', 'MERCHANT', 'TAX_CODE', 'OTHER']);
export type SelectionType = z.infer<typeof SelectionType>;

export const CategoryInfo = z.object({
  id: z.string(),
  external_id: z.string(),
  name: z.string(),
  type: z.string(),
});
export type CategoryInfo = z.infer<typeof CategoryInfo>;

/** F16: one coding of an object or a line item. `external_id` is the ERP's remote id. */
export const FieldSelection = z.object({
  id: z.string(),
  external_id: z.string(),
  name: z.string(),
  type: z.string(),
  category_info: CategoryInfo,
});
export type FieldSelection = z.infer<typeof FieldSelection>;

// ---------------------------------------------------------------- sync statuses (F16)

export const TransactionSyncStatus = z.enum(['NOT_SYNC_READY', 'SYNC_READY', 'SYNCED']);
export type TransactionSyncStatus = z.infer<typeof TransactionSyncStatus>;

export const BillSyncStatus = z.enum(['NOT_SYNCED', 'BILL_SYNCED', 'BILL_AND_PAYMENT_SYNCED']);
export type BillSyncStatus = z.infer<typeof BillSyncStatus>;

export const BillStatus = z.enum(['OPEN', 'PAID']);
export type BillStatus = z.infer<typeof BillStatus>;

// ---------------------------------------------------------------- transactions (F16, F17)

/** Line items of transactions and reimbursements: amount in major units (F16). */
export const LineItem = z.object({
  id: z.string().nullable().optional(),
  amount: z.number(),
  memo: z.string().nullish(),
  accounting_field_selections: z.array(FieldSelection),
});
export type LineItem = z.infer<typeof LineItem>;

export const CardHolder = z.object({
  user_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  department_name: z.string().nullable().optional(),
  location_name: z.string().nullable().optional(),
});
export type CardHolder = z.infer<typeof CardHolder>;

export const Transaction = z.object({
  id: SvcId,
  /** Major units; negative for refunds and reversals (spec 000). */
  amount: z.number(),
  currency_code: CurrencyCode,
  entity_amount: MinorUnitAmount.optional(),
  merchant_amount: MinorUnitAmount.optional(),
  entity_id: z.string().nullish(),
  merchant_id: z.string().nullable().optional(),
  merchant_name: z.string().nullish(),
  sk_category_id: z.number().int().nullable().optional(),
  sk_category_name: z.string().nullable().optional(),
  card_id: z.string().nullable().optional(),
  fund_id: z.string().nullable().optional(),
  card_holder: CardHolder.nullable().optional(),
  user_transaction_time: Timestamp,
  settlement_date: Timestamp.nullable().optional(),
  accounting_date: Timestamp.nullable().optional(),
  updated_at: Timestamp.optional(),
  state: z.string().optional(),
  memo: z.string().nullish(),
  receipts: z.array(z.string()).optional(),
  original_transaction_id: z.string().nullable().optional(),
  all_requirements_met_and_approved: z.boolean().optional(),
  accounting_field_selections: z.array(FieldSelection),
  line_items: z.array(LineItem),
  sync_status: TransactionSyncStatus,
  synced_at: Timestamp.nullable().optional(),
  /** F17: present only with the vendor-creation setting on. */
  requires_accounting_vendor_creation_to_sync: z.boolean().optional(),
});
export type Transaction = z.infer<typeof Transaction>;

export const Reimbursement = z.object({
  id: SvcId,
  amount: z.number(),
  currency_code: CurrencyCode,
  entity_id: z.string().nullish(),
  user_id: z.string().nullable().optional(),
  user_full_name: z.string().nullable().optional(),
  merchant_name: z.string().nullable().optional(),
  type: z.string().optional(),
  state: z.string().optional(),
  transaction_date: Timestamp.nullable().optional(),
  created_at: Timestamp,
  approved_at: Timestamp.nullable().optional(),
  memo: z.string().nullish(),
  accounting_field_selections: z.array(FieldSelection),
  line_items: z.array(LineItem),
  sync_status: TransactionSyncStatus,
  synced_at: Timestamp.nullable().optional(),
});
export type Reimbursement = z.infer<typeof Reimbursement>;

export const Transfer = z.object({
  id: SvcId,
  amount: z.number(),
  currency_code: CurrencyCode,
  entity_id: z.string().nullish(),
  status: z.string().optional(),
  created_at: Timestamp,
  memo: z.string().nullable().optional(),
  accounting_field_selections: z.array(FieldSelection).optional(),
  sync_status: TransactionSyncStatus,
  synced_at: Timestamp.nullable().optional(),
});
export type Transfer = z.infer<typeof Transfer>;

export const Cashback = z.object({
  id: SvcId,
  amount: z.number(),
  currency_code: CurrencyCode,
  entity_id: z.string().nullish(),
  created_at: Timestamp,
  memo: z.string().nullable().optional(),
  accounting_field_selections: z.array(FieldSelection).optional(),
  sync_status: TransactionSyncStatus,
  synced_at: Timestamp.nullable().optional(),
});
export type Cashback = z.infer<typeof Cashback>;

// ---------------------------------------------------------------- bills (F16, spec 001 Bill)

/** Bill line items carry minor-unit amounts like the bill itself (F16). */
export const BillLineItem = z.object({
  id: z.string().nullable().optional(),
  amount: MinorUnitAmount,
  memo: z.string().nullish(),
  accounting_field_selections: z.array(FieldSelection),
});
export type BillLineItem = z.infer<typeof BillLineItem>;

export const BillPayment = z.object({
  id: z.string(),
  amount: MinorUnitAmount.optional(),
  payment_date: Timestamp.nullable().optional(),
  payment_method: z.string().nullable().optional(),
  customer_friendly_payment_id: z.string().nullable().optional(),
});
export type BillPayment = z.infer<typeof BillPayment>;

export const BillVendorRef = z.object({
  id: z.string(),
  name: z.string(),
  accounting_vendor_remote_id: z.string().nullable().optional(),
});
export type BillVendorRef = z.infer<typeof BillVendorRef>;

export const Bill = z.object({
  id: SvcId,
  remote_id: z.string().nullable().optional(),
  invoice_number: z.string().nullable().optional(),
  vendor_id: z.string().nullable().optional(),
  vendor: BillVendorRef.nullable().optional(),
  entity_id: z.string().nullish(),
  amount: MinorUnitAmount,
  status: BillStatus,
  payment_status: z.string().nullable().optional(),
  status_summary: z.string().nullable().optional(),
  approval_status: z.string().nullable().optional(),
  sync_status: BillSyncStatus,
  enable_accounting_sync: z.boolean().optional(),
  issued_at: Timestamp.nullable().optional(),
  due_at: Timestamp.nullable().optional(),
  paid_at: Timestamp.nullable().optional(),
  created_at: Timestamp,
  memo: z.string().nullable().optional(),
  vendor_memo: z.string().nullable().optional(),
  accounting_field_selections: z.array(FieldSelection),
  line_items: z.array(BillLineItem),
  payment: BillPayment.nullable().optional(),
  deep_link_url: z.string().nullable().optional(),
});
export type Bill = z.infer<typeof Bill>;

// ---------------------------------------------------------------- list queries (F4, F16)

const Paging = {
  start: z.string().min(1).optional(),
  page_size: z.coerce.number().int().min(2).max(100).default(20),
};
const Bool = z.enum(['true', 'false']);

/** GET /transactions and /reimbursements (spec 000 transactions filters; F16). */
export const ListTransactionsQuery = z.object({
  ...Paging,
  sync_status: TransactionSyncStatus.optional(),
  requested_to_sync: Bool.optional(),
  synced_after: z.string().optional(),
  from_date: z.string().optional(),
  to_date: z.string().optional(),
  updated_after: z.string().optional(),
  entity_id: z.string().optional(),
  has_no_sync_commit: Bool.optional(),
  limit_id: z.string().optional(),
  include_functional_currency_amount: Bool.optional(),
});
export type ListTransactionsQuery = z.infer<typeof ListTransactionsQuery>;

/** GET /transfers and /cashbacks. */
export const ListSimpleObjectsQuery = z.object({
  ...Paging,
  sync_status: TransactionSyncStatus.optional(),
  synced_after: z.string().optional(),
  from_date: z.string().optional(),
  to_date: z.string().optional(),
  entity_id: z.string().optional(),
});
export type ListSimpleObjectsQuery = z.infer<typeof ListSimpleObjectsQuery>;

/** GET /bills (spec 001 "Bills and vendors"; delta by from_created_at only, spec 000 Limits). */
export const ListBillsQuery = z.object({
  ...Paging,
  sync_ready: Bool.optional(),
  sync_status: BillSyncStatus.optional(),
  status: BillStatus.optional(),
  from_created_at: z.string().optional(),
  entity_id: z.string().optional(),
  remote_id: z.string().optional(),
  vendor_id: z.string().optional(),
  is_accounting_sync_enabled: Bool.optional(),
});
export type ListBillsQuery = z.infer<typeof ListBillsQuery>;
