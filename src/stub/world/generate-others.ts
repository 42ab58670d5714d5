import type { Cashback, LineItem, Reimbursement, Transfer } from '../../platform/schemas/objects.ts';
import { FIRST_NAMES, LAST_NAMES, MEMOS, MERCHANTS } from './catalog.ts';
import {
  applyCodings,
  drawCodingMode,
  drawEntity,
  drawLineSelections,
  drawMinor,
  type GenContext,
  iso,
  major,
  rngFor,
  syncedAtIso,
  withOverrides,
} from './generate-common.ts';
import { timeOf } from './world.ts';

/** Reimbursements, transfers and cashbacks (PLATFORM-FACTS F16) generated from their index. */

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
  const created = timeOf('reimbursement', index);
  const extras = store.peekExtras(index);
  const body = [...lineSelections];
  if (hasVendor && vendorPick) body.push(resolver.vendor(vendorPick));
  const lineItems: LineItem[] = [
    { id: null, amount: major(minor, currency), memo, accounting_field_selections: lineSelections },
  ];
  const out: Reimbursement = {
    id: world.idOf('reimbursement', index),
    amount: major(minor, currency),
    currency_code: currency,
    entity_id: entity?.id ?? null,
    user_id: world.auxId('user', (index * 13) % 101),
    user_full_name: `${first} ${last}`,
    merchant_name: mileage ? null : merchant,
    type: mileage ? 'MILEAGE' : 'OUT_OF_POCKET',
    state: 'APPROVED',
    transaction_date: iso(created - 2 * 86_400_000),
    created_at: iso(created),
    approved_at: iso(created + 3_600_000),
    memo,
    accounting_field_selections: applyCodings(body, extras),
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
  const out: Transfer = {
    id: world.idOf('transfer', index),
    amount: major(minor, currency),
    currency_code: currency,
    entity_id: entity?.id ?? null,
    status: 'ACCEPTED',
    created_at: iso(timeOf('transfer', index)),
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
  const out: Cashback = {
    id: world.idOf('cashback', index),
    amount: major(minor, currency),
    currency_code: currency,
    entity_id: entity?.id ?? null,
    created_at: iso(timeOf('cashback', index)),
    memo: 'Cashback',
    accounting_field_selections: applyCodings([], extras),
    sync_status: store.statusName(index) as Cashback['sync_status'],
    synced_at: syncedAtIso(ctx, 'cashback', index),
  };
  return withOverrides(out, extras);
}
