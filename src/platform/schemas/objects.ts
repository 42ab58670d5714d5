import { z } from 'zod';
import { SvcId } from './common.ts';

/**
 * Ready objects as the worker reads them (docs/platform.md F16, F17, F22–F27). These are tolerant
 * readers: they check only the fields the worker uses, let every one of those be absent or null
 * where the platform may leave it out, and ignore everything else. A field the mapping needs and
 * does not find becomes a failure with a message for the bookkeeper (src/sync/map), never a
 * refused page. The stub builds the full live objects with its own schemas (packages/stub/src/schemas).
 */

/** Field external id the platform uses for the vendor selection (F18). */
export const MERCHANT_FIELD_EXTERNAL_ID = 'Merchant';

const text = z.string().nullish();
const flag = z.boolean().nullish();

/**
 * An amount in any of the three forms of F22 (read into minor units by src/money.ts): a
 * major-unit number beside a currency, a CurrencyAmount `{amount, currency_code}` in minor units,
 * or `{currency, value}`, also in minor units.
 */
export const AmountField = z.union([
  z.number(),
  z.looseObject({ amount: z.number(), currency_code: text }),
  z.looseObject({ value: z.number(), currency: text }),
]);
export type AmountField = z.infer<typeof AmountField>;

/** A list the platform may send as null or leave out: read as empty. */
function listOf<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((items) => items ?? []);
}

/** The field a selection belongs to (F16); on bills the only place the type is written (F26). */
const CategoryInfo = z.object({ id: text, external_id: text, name: text, type: text });

/**
 * F16, F24, F26: one coding of an object or a line item. `external_id` is the ERP's remote id of
 * the chosen option. Every key may be null (F24), and bills carry the type only in
 * `category_info` (F26).
 */
export const FieldSelection = z.object({
  id: text,
  external_id: text,
  name: text,
  type: text,
  category_info: CategoryInfo.nullish(),
});
export type FieldSelection = z.infer<typeof FieldSelection>;

const Selections = listOf(FieldSelection);

// ---------------------------------------------------------------- transactions (F16, F17, F23)

/**
 * Line items of transactions, reimbursements and bills. `amount` is a CurrencyAmount on the live
 * service (F23, F26), a major-unit number in the platform guide (F16), or null on a
 * reimbursement (F24); `converted_amount` is the same line in the entity's currency (F23).
 */
export const LineItem = z.object({
  amount: AmountField.nullish(),
  converted_amount: AmountField.nullish(),
  memo: text,
  accounting_field_selections: Selections,
});
export type LineItem = z.infer<typeof LineItem>;

const CardHolder = z.object({ user_id: text, first_name: text, last_name: text });

export const Transaction = z.object({
  id: SvcId,
  /** Major units beside `currency_code` (F16); negative for refunds and reversals. */
  amount: AmountField.nullish(),
  currency_code: text,
  /** The settlement amount in the entity's currency: read when `amount` names none (F22). */
  entity_amount: AmountField.nullish(),
  entity_id: text,
  merchant_id: text,
  merchant_name: text,
  card_holder: CardHolder.nullish(),
  user_transaction_time: text,
  settlement_date: text,
  accounting_date: text,
  memo: text,
  accounting_field_selections: Selections,
  line_items: listOf(LineItem),
  sync_status: text,
  synced_at: text,
  /** F17: present only with the vendor-creation setting on. */
  requires_accounting_vendor_creation_to_sync: flag,
});
export type Transaction = z.infer<typeof Transaction>;

/** F24: the currency is `currency` on the live service, `currency_code` in the guide. */
export const Reimbursement = z.object({
  id: SvcId,
  amount: AmountField.nullish(),
  currency: text,
  currency_code: text,
  entity_id: text,
  user_id: text,
  user_full_name: text,
  merchant_name: text,
  transaction_date: text,
  approved_at: text,
  created_at: text,
  memo: text,
  accounting_field_selections: Selections,
  line_items: listOf(LineItem),
  sync_status: text,
  synced_at: text,
});
export type Reimbursement = z.infer<typeof Reimbursement>;

/** F25: `amount` is a CurrencyAmount and there is no top-level currency on the live service. */
export const Transfer = z.object({
  id: SvcId,
  amount: AmountField.nullish(),
  currency_code: text,
  entity_id: text,
  created_at: text,
  memo: text,
  sync_status: text,
  synced_at: text,
});
export type Transfer = z.infer<typeof Transfer>;

/** A cashback has a transfer's shape (F25). @alias */
export const Cashback = Transfer;
export type Cashback = z.infer<typeof Cashback>;

// ---------------------------------------------------------------- bills (F16, F26)

/** F26: the 2025 published schema gives a payment no `id`; `effective_date` is the value date. */
const BillPayment = z.object({
  amount: AmountField.nullish(),
  payment_date: text,
  effective_date: text,
});

/** F26: `remote_id` is the ERP vendor id on the live service. */
const BillVendorRef = z.object({
  id: text,
  name: text,
  remote_id: text,
  accounting_vendor_remote_id: text,
});

export const Bill = z.object({
  id: SvcId,
  invoice_number: text,
  vendor: BillVendorRef.nullish(),
  entity_id: text,
  amount: AmountField.nullish(),
  /** OPEN or PAID (F16); `payment_status` says PAID too on the live service. */
  status: text,
  payment_status: text,
  sync_status: text,
  issued_at: text,
  due_at: text,
  paid_at: text,
  created_at: text,
  memo: text,
  vendor_memo: text,
  accounting_field_selections: Selections,
  line_items: listOf(LineItem),
  payment: BillPayment.nullish(),
});
export type Bill = z.infer<typeof Bill>;
