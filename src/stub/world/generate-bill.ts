import type { Bill, BillLineItem, BillPayment } from '../../platform/schemas/objects.ts';
import { MEMOS } from './catalog.ts';
import {
  applyCodings,
  drawCodingMode,
  drawEntity,
  drawLineSelections,
  drawMinor,
  type GenContext,
  iso,
  rngFor,
  splitMinor,
  withOverrides,
} from './generate-common.ts';
import { B_BILL_SYNCED, FLAG_SYNC_DISABLED } from './object-store.ts';
import { timeOf } from './world.ts';

/**
 * An approved bill (spec 001 "Bill"; PLATFORM-FACTS F16) generated from its index. Amounts are
 * minor units; `status` OPEN/PAID and `sync_status` come from the store (decision table).
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

  const created = timeOf('bill', index);
  const vendor = vendorAt >= 0 ? world.vendors[vendorAt]! : null;
  const extras = store.peekExtras(index);
  const body = vendor?.accounting_vendor_remote_id
    ? [resolver.vendor(vendor.accounting_vendor_remote_id)]
    : [];
  const paid = store.isPaid(index);
  const paidAt = extras?.paidAt ?? created + paidDays * 86_400_000;
  const id = world.idOf('bill', index);
  const deepLink = [...(extras?.syncs ?? [])].reverse().find((s) => s.deep_link_url)?.deep_link_url ?? null;
  const lineItems: BillLineItem[] = lines.map((line, n) => ({
    id: `${id}-li${n}`,
    amount: { amount: line.part, currency_code: currency },
    memo: lines.length > 1 ? `Line ${n + 1}` : memo,
    accounting_field_selections: line.selections,
  }));

  const bill: Bill = {
    id,
    remote_id: null,
    invoice_number: `INV-${(index + 1).toString().padStart(6, '0')}`,
    vendor_id: vendor?.id ?? null,
    vendor: vendor
      ? { id: vendor.id, name: vendor.name, accounting_vendor_remote_id: vendor.accounting_vendor_remote_id }
      : null,
    entity_id: entity?.id ?? null,
    amount: { amount: total, currency_code: currency },
    status: paid ? 'PAID' : 'OPEN',
    payment_status: paid ? 'PAID' : 'OPEN',
    status_summary: paid ? 'PAYMENT_COMPLETED' : 'PAYMENT_SCHEDULED',
    approval_status: 'APPROVED',
    sync_status: store.statusName(index) as Bill['sync_status'],
    enable_accounting_sync: (store.flagsOf(index) & FLAG_SYNC_DISABLED) === 0,
    issued_at: iso(created),
    due_at: iso(created + dueDays * 86_400_000),
    paid_at: paid ? iso(paidAt) : null,
    created_at: iso(created),
    memo,
    vendor_memo: null,
    accounting_field_selections: applyCodings(body, extras),
    line_items: lineItems,
    payment: paid ? billPayment(world.auxId('payment', index), index, total, currency, paidAt) : null,
    deep_link_url: store.statusOf(index) >= B_BILL_SYNCED ? deepLink : null,
  };
  return withOverrides(bill, extras);
}

/** The payment of a paid bill (spec 001 "payment details"). */
function billPayment(
  id: string,
  index: number,
  total: number,
  currency: string,
  paidAt: number,
): BillPayment {
  return {
    id,
    amount: { amount: total, currency_code: currency },
    payment_date: iso(paidAt),
    payment_method: 'ACH',
    customer_friendly_payment_id: `PAY-${(index + 1).toString().padStart(6, '0')}`,
  };
}
