import type { Cashback, Reimbursement, ReimbursementLineItem, Transfer } from '../schemas/objects.ts';
import { FIRST_NAMES, LAST_NAMES, MEMOS, MERCHANTS } from './catalog.ts';
import {
  applyCodings,
  drawCodingMode,
  drawEntity,
  drawLineSelections,
  drawMinor,
  type GenContext,
  iso,
  isoDate,
  major,
  money,
  rngFor,
  syncedAtIso,
  valueAmount,
  withOverrides,
} from './generate-common.ts';
import { toReimbursementSelection } from './selections.ts';

/**
 * Reimbursements, transfers and cashbacks generated from their index (docs/platform.md F16,
 * F24, F25). Fields the published reference adds are derived from earlier draws or the index,
 * so each world stays as it was.
 */

export function generateReimbursement(ctx: GenContext, index: number): Reimbursement {
  const { world, resolver } = ctx;
  const store = world.stores.reimbursement;
  const segment = world.segmentOf('reimbursement', index);
  const rng = rngFor(segment, store.code, index);
  const entity = drawEntity(rng, world);
  const currency = entity?.currency ?? 'USD';
  const minor = drawMinor(rng, currency, 500, 80_000);
  const mileage = rng.chance(0.15);
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const merchant = rng.pick(MERCHANTS);
  const memo = rng.pick(MEMOS);
  const mode = drawCodingMode(rng, segment);
  const lineSelections = drawLineSelections(rng, segment, resolver, mode);
  const hasVendor =
    segment.chart.vendors.length > 0 && !rng.chance(segment.fractions.vendor_creation_fraction);
  const vendorPick = segment.chart.vendors.length > 0 ? rng.pick(segment.chart.vendors) : null;
  const created = world.timeOf('reimbursement', index);
  const extras = store.peekExtras(index);
  const body = [...lineSelections];
  if (hasVendor && vendorPick) body.push(resolver.vendor(vendorPick));
  // F24: the line amount is a CurrencyAmount; the single line carries the whole amount.
  const lineItems: ReimbursementLineItem[] = [
    {
      id: null,
      amount: money(minor, currency),
      memo,
      // F24: every key of a selection is present, null where the stub has no value.
      accounting_field_selections: lineSelections.map(toReimbursementSelection),
    },
  ];
  const spent = created - 2 * 86_400_000;
  const out: Reimbursement = {
    id: world.idOf('reimbursement', index),
    amount: major(minor, currency),
    // F24: the published object names the currency `currency` (no `currency_code`).
    currency,
    entity_amount: valueAmount(minor, currency),
    original_reimbursement_amount: money(minor, currency),
    payee_amount: money(minor, currency),
    entity_id: entity?.id ?? null,
    user_id: world.auxId('user', (index * 13) % 101),
    user_full_name: `${first} ${last}`,
    user_email: `${first}.${last}@example.com`.toLowerCase(),
    employee_id: null,
    merchant: mileage ? null : merchant,
    merchant_name: mileage ? null : merchant,
    merchant_id: mileage ? null : world.auxId('merchant', MERCHANTS.indexOf(merchant)),
    type: mileage ? 'MILEAGE' : 'OUT_OF_POCKET',
    direction: 'BUSINESS_TO_USER',
    state: 'APPROVED',
    // Mileage: a distance derived from the amount (no extra draw).
    distance: mileage ? Math.max(1, Math.round(minor / 67)) : null,
    start_location: mileage ? 'Head office' : null,
    end_location: mileage ? 'Client site' : null,
    waypoints: [],
    transaction_date: isoDate(spent),
    created_at: iso(created),
    submitted_at: iso(created),
    approved_at: iso(created + 3_600_000),
    accounting_date: iso(spent),
    payment_id: null,
    payment_batch_id: null,
    payment_processed_at: null,
    trace_id: null,
    spend_limit_id: null,
    fund_id: null,
    trip_id: null,
    receipts: [],
    attendees: [],
    updated_at: iso(Math.max(created + 3_600_000, store.syncedAtOf(index), extras?.codedAt ?? 0)),
    memo,
    accounting_field_selections: applyCodings(body, extras).map(toReimbursementSelection),
    line_items: lineItems,
    sync_status: store.statusName(index) as Reimbursement['sync_status'],
    synced_at: syncedAtIso(ctx, 'reimbursement', index),
  };
  return withOverrides(out, extras);
}

export function generateTransfer(ctx: GenContext, index: number): Transfer {
  const { world } = ctx;
  const store = world.stores.transfer;
  const segment = world.segmentOf('transfer', index);
  const rng = rngFor(segment, store.code, index);
  const entity = drawEntity(rng, world);
  const currency = entity?.currency ?? 'USD';
  const minor = drawMinor(rng, currency, 100_000, 50_000_000);
  const extras = store.peekExtras(index);
  // F25: a CurrencyAmount and no top-level currency; status from the published enum.
  const out: Transfer = {
    id: world.idOf('transfer', index),
    amount: money(minor, currency),
    entity_id: entity?.id ?? null,
    bank_account_id: entity?.bank_accounts[0]?.id ?? null,
    payment_id: world.auxId('transfer_payment', index),
    status: 'COMPLETED',
    created_at: iso(world.timeOf('transfer', index)),
    memo: 'Statement payment',
    accounting_field_selections: applyCodings([], extras),
    sync_status: store.statusName(index) as Transfer['sync_status'],
    synced_at: syncedAtIso(ctx, 'transfer', index),
  };
  return withOverrides(out, extras);
}

export function generateCashback(ctx: GenContext, index: number): Cashback {
  const { world } = ctx;
  const store = world.stores.cashback;
  const segment = world.segmentOf('cashback', index);
  const rng = rngFor(segment, store.code, index);
  const entity = drawEntity(rng, world);
  const currency = entity?.currency ?? 'USD';
  const minor = drawMinor(rng, currency, 1_000, 500_000);
  const extras = store.peekExtras(index);
  // F25: a CurrencyAmount and no top-level currency.
  const out: Cashback = {
    id: world.idOf('cashback', index),
    amount: money(minor, currency),
    entity_id: entity?.id ?? null,
    created_at: iso(world.timeOf('cashback', index)),
    memo: 'Cashback',
    accounting_field_selections: applyCodings([], extras),
    sync_status: store.statusName(index) as Cashback['sync_status'],
    synced_at: syncedAtIso(ctx, 'cashback', index),
  };
  return withOverrides(out, extras);
}
