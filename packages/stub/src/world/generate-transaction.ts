import type { Entity } from '../schemas/entities.ts';
import type { AnySelection, FieldSelection, Transaction, TransactionLineItem } from '../schemas/objects.ts';
import {
  DEPARTMENTS,
  ENTITY_CURRENCIES,
  FIRST_NAMES,
  LAST_NAMES,
  MCC_DESCRIPTIONS,
  MEMOS,
  MERCHANT_FACTS,
  MERCHANTS,
  SK_CATEGORY_NAMES,
  TRIP_NAMES,
} from './catalog.ts';
import {
  applyCodings,
  drawCodingMode,
  drawEntity,
  drawLineSelections,
  drawMinor,
  type GenContext,
  iso,
  major,
  minorUnitRate,
  money,
  present,
  rngFor,
  splitMinor,
  syncedAtIso,
  valueAmount,
  withOverrides,
} from './generate-common.ts';
import { S_NOT_READY } from './object-store.ts';
import { selectionType } from './selections.ts';

interface DrawnTransaction {
  entity: Entity | null;
  currency: string;
  merchantAt: number;
  minor: number;
  merchantMinor: number;
  merchantCurrency: string;
  original: number;
  holder: { first: string; last: string; department: string };
  memo: string | null;
  categoryId: number;
  lines: Array<{ part: number; selections: FieldSelection[] }>;
  body: FieldSelection[];
}

/** Every random choice of one transaction, in a fixed order: changing it changes every world. */
function drawTransaction(ctx: GenContext, index: number): DrawnTransaction {
  const { world, resolver } = ctx;
  const segment = world.segmentOf('transaction', index);
  const f = segment.fractions;
  const chart = segment.chart;
  const rng = rngFor(segment, world.stores.transaction.code, index);
  const entity = drawEntity(rng, world);
  const currency = entity?.currency ?? 'USD';
  const merchantAt = rng.int(0, MERCHANTS.length - 1);
  let minor = drawMinor(rng, currency);
  const foreign = rng.chance(f.foreign_fraction);
  const merchantCurrency = foreign ? rng.pick(ENTITY_CURRENCIES.filter((c) => c !== currency)) : currency;
  const refund = index > 0 && rng.chance(f.refund_fraction);
  const original = refund ? rng.int(0, index - 1) : -1;
  if (refund) minor = -minor;
  const holder = {
    first: rng.pick(FIRST_NAMES),
    last: rng.pick(LAST_NAMES),
    department: rng.pick(DEPARTMENTS),
  };
  const memo = rng.pick(MEMOS);
  const categoryId = rng.int(1, 44);
  const mode = drawCodingMode(rng, segment);
  const hasVendor = !rng.chance(f.vendor_creation_fraction) && chart.vendors.length > 0;
  const vendorPick = chart.vendors.length > 0 ? rng.pick(chart.vendors) : null;
  const parts = rng.chance(f.split_fraction) ? rng.int(2, 3) : 1;
  const lines = splitMinor(rng, minor, parts).map((part) => ({
    part,
    selections: drawLineSelections(rng, segment, resolver, mode),
  }));
  const taxPick = chart.tax_codes.length > 0 && rng.chance(0.3) ? rng.pick(chart.tax_codes) : null;
  const merchantMinor = foreign ? Math.round(minor * (0.8 + rng.next() * 0.4)) : minor;
  // One line: its codings are the body's too. Splits: the body carries only vendor and tax.
  const body: FieldSelection[] = lines.length === 1 ? [...lines[0]!.selections] : [];
  if (hasVendor && vendorPick) body.push(resolver.vendor(vendorPick));
  if (taxPick) body.push(resolver.taxCode(taxPick));
  return {
    entity,
    currency,
    merchantAt,
    minor,
    merchantMinor,
    merchantCurrency,
    original,
    holder,
    memo,
    categoryId,
    lines,
    body,
  };
}

/** Trips a travel transaction can belong to (derived from the index: no extra draws). */
const TRIP_COUNT = 23;

/**
 * Approval as the F28 `approval_status` filter sees it: a transaction that is not ready to sync
 * still waits for its reviewer; ready and synced ones are fully approved.
 */
export function transactionApproval(status: number): 'FULLY_APPROVED' | 'AWAITING_REVIEWER' {
  return status === S_NOT_READY ? 'AWAITING_REVIEWER' : 'FULLY_APPROVED';
}

/**
 * A card transaction generated from its index (platform guide "Transaction"; docs/platform.md
 * F16, F17, F23), with the store's sync state, POST /accounting/codings and control-route
 * overrides applied. Fields added for the published reference (F23) are derived from earlier
 * draws (merchant, currencies, index), so they cost no extra draws and leave every world as it was.
 * The optional fields the stub has no value for (`merchant_data`, `spend_program_id`,
 * `statement_id`, the card holder's `employee_id` and location) are left out, never null (F36).
 */
export function generateTransaction(ctx: GenContext, index: number): Transaction {
  const { world } = ctx;
  const store = world.stores.transaction;
  const d = drawTransaction(ctx, index);
  const id = world.idOf('transaction', index);
  const extras = store.peekExtras(index);
  const at = world.timeOf('transaction', index);
  const merchant = MERCHANT_FACTS[d.merchantAt]!;
  const trip = merchant.travel ? index % TRIP_COUNT : -1;
  // 22 is not in the published category enum: it is served as 2, "Other".
  const categoryId = d.categoryId === 22 ? 2 : d.categoryId;
  const fundId = world.auxId('fund', index % 89);
  const status = store.statusOf(index);
  const txn: Transaction = {
    id,
    amount: major(d.minor, d.currency),
    currency_code: d.currency,
    entity_amount: valueAmount(d.minor, d.currency),
    merchant_amount: valueAmount(d.merchantMinor, d.merchantCurrency),
    original_transaction_amount: money(d.merchantMinor, d.merchantCurrency),
    minor_unit_conversion_rate: minorUnitRate(d.currency),
    entity_id: d.entity?.id ?? null,
    merchant_id: world.auxId('merchant', d.merchantAt),
    merchant_name: MERCHANTS[d.merchantAt]!,
    merchant_descriptor: MERCHANTS[d.merchantAt]!.toUpperCase(),
    merchant_category_code: merchant.mcc,
    merchant_category_code_description: MCC_DESCRIPTIONS[merchant.mcc] ?? null,
    merchant_location: merchant.location ? { ...merchant.location } : null,
    card_present: merchant.cardPresent,
    sk_category_id: categoryId,
    sk_category_name: SK_CATEGORY_NAMES[categoryId] ?? null,
    card_id: world.auxId('card', index % 97),
    fund_id: fundId,
    limit_id: fundId,
    card_holder: {
      user_id: world.auxId('user', (index * 7) % 101),
      first_name: d.holder.first,
      last_name: d.holder.last,
      department_id: world.auxId('department', DEPARTMENTS.indexOf(d.holder.department)),
      department_name: d.holder.department,
    },
    user_transaction_time: iso(at),
    settlement_date: iso(at + 86_400_000),
    accounting_date: iso(at),
    updated_at: iso(Math.max(at + 86_400_000, store.syncedAtOf(index), extras?.codedAt ?? 0)),
    state: 'CLEARED',
    memo: d.memo,
    receipts: [],
    accounting_categories: [],
    attendees: [],
    disputes: [],
    policy_violations: [],
    original_transaction_id: d.original >= 0 ? world.idOf('transaction', d.original) : null,
    all_requirements_met_and_approved: transactionApproval(status) === 'FULLY_APPROVED',
    trip_id: trip >= 0 ? world.auxId('trip', trip) : null,
    trip_name: trip >= 0 ? TRIP_NAMES[trip % TRIP_NAMES.length]! : null,
    accounting_field_selections: applyCodings(d.body, extras),
    // F23: line amounts are CurrencyAmounts in the transaction's currency, which is the entity's
    // (settlement) currency, so `converted_amount` equals `amount`; the parts sum to the total.
    line_items: d.lines.map(
      (line, n): TransactionLineItem => ({
        id: d.lines.length > 1 ? `${id}-li${n}` : null,
        amount: money(line.part, d.currency),
        converted_amount: money(line.part, d.currency),
        // F36: a line without a memo leaves the key out.
        ...present('memo', d.lines.length > 1 ? `Split ${n + 1} of ${d.lines.length}` : d.memo),
        accounting_field_selections: line.selections,
      }),
    ),
    sync_status: store.statusName(index) as Transaction['sync_status'],
    synced_at: syncedAtIso(ctx, 'transaction', index),
  };
  const out = withOverrides(txn, extras);
  const overridden = extras?.overrides && 'requires_accounting_vendor_creation_to_sync' in extras.overrides;
  if (ctx.settings?.transaction_accounting_vendor_creation_on_sync_enabled && !overridden) {
    // docs/platform.md F17: present only with the setting on; true without a MERCHANT selection.
    out.requires_accounting_vendor_creation_to_sync = needsVendorCreation(out);
  }
  return out;
}

/** docs/platform.md F17 (rule 2): no accounting-vendor (MERCHANT) selection on the transaction. */
export function needsVendorCreation(txn: { accounting_field_selections: AnySelection[] }): boolean {
  return !txn.accounting_field_selections.some((s) => selectionType(s) === 'MERCHANT');
}
