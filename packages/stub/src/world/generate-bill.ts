import type { Bill, BillLineItem, BillPayment } from '../schemas/objects.ts';
import { FIRST_NAMES, LAST_NAMES, MEMOS } from './catalog.ts';
import {
  applyCodings,
  drawCodingMode,
  drawEntity,
  drawLineSelections,
  drawMinor,
  type GenContext,
  iso,
  money,
  present,
  rngFor,
  splitMinor,
  withOverrides,
} from './generate-common.ts';
import { B_BILL_SYNCED, FLAG_SYNC_DISABLED, type ObjectStore } from './object-store.ts';
import { toBillSelection } from './selections.ts';
import type { World } from './world.ts';

/**
 * An approved bill generated from its index (platform guide "Bill"; docs/platform.md F16, F26).
 * Amounts are CurrencyAmounts in minor units; `status` OPEN/PAID and `sync_status` come from the
 * store (decision table). Selections on the bill and its lines carry no top-level `type` (F26);
 * fields the published reference adds are derived from earlier draws or the index. Optional
 * fields without a value (`posting_date`, `vendor_memo`, an unlinked vendor's remote fields) are
 * left out, never null (F36).
 */
export function generateBill(ctx: GenContext, index: number): Bill {
  const { world, resolver } = ctx;
  const store = world.stores.bill;
  const segment = world.segmentOf('bill', index);
  const rng = rngFor(segment, store.code, index);

  const entity = drawEntity(rng, world);
  const currency = entity?.currency ?? 'USD';
  const vendorAt = world.vendors.length > 0 ? rng.int(0, world.vendors.length - 1) : -1;
  const total = drawMinor(rng, currency, 5_000, 2_500_000);
  const parts = rng.chance(segment.fractions.split_fraction * 2) ? rng.int(2, 3) : 1;
  const amounts = splitMinor(rng, total, parts);
  const mode = drawCodingMode(rng, segment);
  const lines = amounts.map((part) => ({
    part,
    selections: drawLineSelections(rng, segment, resolver, mode),
  }));
  const memo = rng.pick(MEMOS);
  const dueDays = rng.int(15, 45);
  const paidDays = rng.int(1, dueDays);

  const created = world.timeOf('bill', index);
  const vendor = vendorAt >= 0 ? world.vendors[vendorAt]! : null;
  const extras = store.peekExtras(index);
  // The accounting vendor the platform vendor is linked to (the platform guide's vendor link).
  const linked = vendor?.accounting_vendor_remote_id ?? null;
  const vendorSelection = linked ? resolver.vendor(linked) : null;
  const body = vendorSelection ? [vendorSelection] : [];
  const paid = store.isPaid(index);
  const paidAt = extras?.paidAt ?? created + paidDays * 86_400_000;
  const id = world.idOf('bill', index);
  const deepLink = [...(extras?.syncs ?? [])].reverse().find((s) => s.deep_link_url)?.deep_link_url ?? null;
  const lineItems: BillLineItem[] = lines.map((line, n) => ({
    id: `${id}-li${n}`,
    amount: money(line.part, currency),
    ...present('memo', lines.length > 1 ? `Line ${n + 1}` : memo),
    accounting_field_selections: line.selections.map(toBillSelection),
    purchase_order_line_item_id: null,
    item_receipt_line_item_ids: [],
  }));
  const owner = (index * 11) % 101;
  const billPayAccount = entity?.bank_accounts.find((b) => b.usage_type === 'BILL_PAY_BANK_ACCOUNT');

  const bill: Bill = {
    id,
    remote_id: billRemoteId(store, index),
    invoice_number: `INV-${(index + 1).toString().padStart(6, '0')}`,
    invoice_urls: [],
    vendor_id: vendor?.id ?? null,
    // F26: `remote_id` is the ERP vendor id, the accounting vendor the platform vendor is linked to.
    vendor: vendor
      ? {
          id: vendor.id,
          name: vendor.name,
          // F36: an unlinked vendor leaves its remote fields out.
          ...present('remote_id', linked),
          ...present('remote_code', vendorSelection?.external_code),
          ...present('remote_name', vendorSelection?.name),
          ...present('accounting_vendor_remote_id', linked),
          type: 'BUSINESS',
        }
      : null,
    vendor_contact_id: null,
    entity_id: entity?.id ?? null,
    bill_owner: {
      id: world.auxId('user', owner),
      first_name: FIRST_NAMES[owner % FIRST_NAMES.length]!,
      last_name: LAST_NAMES[owner % LAST_NAMES.length]!,
    },
    amount: money(total, currency),
    // Bills are drawn in the entity's currency: no conversion.
    fx_conversion_rate: '1.0',
    status: paid ? 'PAID' : 'OPEN',
    payment_status: paid ? 'PAID' : 'OPEN',
    status_summary: billStatusSummary(paid),
    approval_status: 'APPROVED',
    sync_status: store.statusName(index) as Bill['sync_status'],
    enable_accounting_sync: (store.flagsOf(index) & FLAG_SYNC_DISABLED) === 0,
    issued_at: iso(created),
    due_at: iso(created + dueDays * 86_400_000),
    paid_at: paid ? iso(paidAt) : null,
    created_at: iso(created),
    accounting_date: iso(created),
    archived_at: null,
    draft_bill_id: null,
    draft_bill_created_at: null,
    item_receipt_ids: [],
    applied_vendor_credits: [],
    ...present('memo', memo),
    accounting_field_selections: applyCodings(body, extras).map(toBillSelection),
    line_items: lineItems,
    inventory_line_items: [],
    payment: paid
      ? billPayment(world, index, total, currency, paidAt, billPayAccount?.id ?? null, vendorAt)
      : null,
    deep_link_url: store.statusOf(index) >= B_BILL_SYNCED ? deepLink : null,
  };
  return withOverrides(bill, extras);
}

/**
 * Index of a bill's platform vendor (-1 without vendors): the second draw of generateBill, after
 * the entity, so the vendor_id filter needs no generation (overrides not applied).
 */
export function billVendorIndexOf(world: World, index: number): number {
  if (world.vendors.length === 0) return -1;
  const rng = rngFor(world.segmentOf('bill', index), world.stores.bill.code, index);
  drawEntity(rng, world);
  return rng.int(0, world.vendors.length - 1);
}

/** Platform guide `status_summary` of an approved bill: scheduled until paid, then completed. */
export function billStatusSummary(paid: boolean): Bill['status_summary'] {
  return paid ? 'PAYMENT_COMPLETED' : 'PAYMENT_SCHEDULED';
}

/**
 * The ERP's id of a bill (`remote_id`): the reference_id of its last BILL_SYNC through the API,
 * or null (also for bills seeded as already synced, which no integrator posted). Read from the
 * store, so the `remote_id` filter needs no generation.
 */
export function billRemoteId(store: ObjectStore, index: number): string | null {
  const syncs = store.peekExtras(index)?.syncs;
  if (!syncs) return null;
  for (let k = syncs.length - 1; k >= 0; k--) {
    if (syncs[k]!.sync_type === 'BILL_SYNC') return syncs[k]!.reference_id;
  }
  return null;
}

/**
 * The payment of a paid bill (docs/platform.md F26): amount, payment and effective dates, method,
 * and `id: null` (F38: the 2026 copy requires the key; the stub has no payment id to give);
 * `customer_friendly_payment_id` is the platform guide's, `details` and `trace_id` the published
 * reference's.
 */
function billPayment(
  world: World,
  index: number,
  total: number,
  currency: string,
  paidAt: number,
  sourceAccount: string | null,
  vendorAt: number,
): BillPayment {
  const number = (index + 1).toString().padStart(6, '0');
  return {
    id: null,
    amount: money(total, currency),
    payment_date: iso(paidAt),
    effective_date: iso(paidAt),
    payment_method: 'ACH',
    customer_friendly_payment_id: `PAY-${number}`,
    details: {
      schema_type: 'VendorPaymentDetailsSchema',
      approval_status: 'APPROVED',
      source_bank_account_id: sourceAccount,
      vendor_account_id: vendorAt >= 0 ? world.auxId('vendor_account', vendorAt) : null,
      is_same_day: false,
    },
    trace_id: { descriptor: 'ACH Trace ID', trace_id: `0210000${number}` },
  };
}
