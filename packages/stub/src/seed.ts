import { z } from 'zod';
import { OBJECT_KINDS, type ObjectKind, prefixForSeed } from './core/ids.ts';
import { hashInts, seedToInt } from './core/prng.ts';
import type { BankAccount, Entity, EntityAccount } from './schemas/entities.ts';
import {
  type ChartSnapshot,
  DEFAULT_CHART,
  ENTITY_CURRENCIES,
  ENTITY_NAMES,
  VENDOR_NAMES,
} from './world/catalog.ts';
import type { ConnectionChart } from './world/chart.ts';
import {
  B_ALL_SYNCED,
  B_BILL_SYNCED,
  B_NOT_SYNCED,
  FLAG_PAID,
  FLAG_SYNC_DISABLED,
  S_NOT_READY,
  S_READY,
  S_SYNCED,
} from './world/object-store.ts';
import {
  DEFAULT_FRACTIONS,
  defaultTimeLayout,
  type PlatformVendorRecord,
  type SeedFractions,
  type TimeLayout,
  timeOf,
  type World,
} from './world/world.ts';

/**
 * POST /__stub/seed: a generated world, reproducible from its seed. Only per-object status bytes
 * are written here (1,000,000 transactions in well under a second); each object's content is
 * generated from (seed, index) when read.
 */

const Count = z.number().int().min(0).max(5_000_000);
const Fraction = z.number().min(0).max(1);

export const SeedRequest = z.strictObject({
  seed: z.union([z.number(), z.string()]).default(1),
  transactions: Count.default(50),
  reimbursements: Count.default(10),
  transfers: Count.default(5),
  cashbacks: Count.default(5),
  bills: Count.default(20),
  entities: z.number().int().min(1).max(50).default(3),
  vendors: z.number().int().min(1).max(10_000).default(10),
  append: z.boolean().default(false),
  ready_fraction: Fraction.optional(),
  synced_fraction: Fraction.optional(),
  uncoded_fraction: Fraction.optional(),
  unknown_coding_fraction: Fraction.optional(),
  vendor_creation_fraction: Fraction.optional(),
  refund_fraction: Fraction.optional(),
  split_fraction: Fraction.optional(),
  foreign_fraction: Fraction.optional(),
  /** Weights of the bill rows of docs/platform.md G23 (plus the two not-ready states). */
  bill_mix: z
    .strictObject({
      not_synced_open: z.number().min(0).optional(),
      not_synced_paid: z.number().min(0).optional(),
      bill_synced_paid: z.number().min(0).optional(),
      bill_synced_open: z.number().min(0).optional(),
      all_synced: z.number().min(0).optional(),
    })
    .optional(),
  sync_disabled_fraction: Fraction.default(0.03),
  /**
   * Where a fresh world's objects are dated, per kind: the first at `from`, the last just before
   * `to`, evenly between (default: from 2024-01-01, a fixed step per kind).
   */
  dates: z
    .partialRecord(
      z.enum(['transactions', 'reimbursements', 'transfers', 'cashbacks', 'bills']),
      z
        .strictObject({ from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }) })
        .refine((r) => Date.parse(r.from) < Date.parse(r.to), 'from must be before to'),
    )
    .optional(),
  chart: z
    .strictObject({
      gl_accounts: z.array(z.string().min(1)).optional(),
      fields: z
        .array(z.strictObject({ id: z.string().min(1), options: z.array(z.string().min(1)) }))
        .optional(),
      vendors: z.array(z.string().min(1)).optional(),
      tax_codes: z.array(z.string().min(1)).optional(),
    })
    .optional(),
  connection: z
    .strictObject({
      remote_provider_name: z.string().min(1).optional(),
      settings: z.record(z.string(), z.boolean()).optional(),
    })
    .optional(),
});
export type SeedRequest = z.infer<typeof SeedRequest>;

const DEFAULT_BILL_MIX = {
  not_synced_open: 0.35,
  not_synced_paid: 0.2,
  bill_synced_paid: 0.15,
  bill_synced_open: 0.15,
  all_synced: 0.15,
};

/** Codings come from the seed's chart, else what the active connection holds, else a default. */
export function chartSnapshot(given: SeedRequest['chart'], uploaded: ConnectionChart | null): ChartSnapshot {
  const fromConnection: Partial<ChartSnapshot> = {};
  if (uploaded) {
    const active = <T extends { is_active: boolean; id: string }>(items: T[]) =>
      items.filter((i) => i.is_active).map((i) => i.id);
    fromConnection.gl_accounts = active(uploaded.glAccounts.items);
    fromConnection.vendors = active(uploaded.vendors.items);
    fromConnection.tax_codes = active(uploaded.taxCodeOptions.items);
    fromConnection.fields = uploaded.fields.items
      .filter((f) => f.is_active && f.input_type === 'SINGLE_CHOICE')
      .map((f) => ({ id: f.id, options: active(uploaded.optionsOf(f.svc_id).items) }))
      .filter((f) => f.options.length > 0);
  }
  const pick = <K extends keyof ChartSnapshot>(key: K): ChartSnapshot[K] => {
    const g = given?.[key];
    if (g !== undefined) return g as ChartSnapshot[K];
    const c = fromConnection[key];
    if (c !== undefined && c.length > 0) return c;
    return DEFAULT_CHART[key];
  };
  return {
    gl_accounts: pick('gl_accounts'),
    fields: pick('fields'),
    vendors: pick('vendors'),
    tax_codes: pick('tax_codes'),
  };
}

export interface SeedSummary {
  seed: number | string;
  counts: Record<ObjectKind, number>;
  appended: Record<ObjectKind, { first_index: number; count: number }>;
  chart: ChartSnapshot;
  elapsed_ms: number;
}

export function seedWorld(world: World, request: SeedRequest, chart: ChartSnapshot): SeedSummary {
  const started = performance.now();
  const seedInt = seedToInt(request.seed);
  const fresh = !request.append || world.segments.transaction.length + world.segments.bill.length === 0;
  if (fresh) {
    world.clear();
    world.times = timeLayoutFor(request);
    world.prefix = prefixForSeed(seedInt);
    world.seed = seedInt;
    world.businessId = world.auxId('business', 0);
    world.entities = makeEntities(world, request.entities);
    world.setVendors(makeVendors(world, request.vendors, chart));
  }
  const fractions: SeedFractions = { ...DEFAULT_FRACTIONS };
  for (const key of Object.keys(DEFAULT_FRACTIONS) as Array<keyof SeedFractions>) {
    const value = request[key];
    if (value !== undefined) fractions[key] = value;
  }
  const appended = {} as SeedSummary['appended'];
  for (const kind of OBJECT_KINDS) {
    const n = request[`${kind}s` as const];
    const store = world.stores[kind];
    const segmentSeed = hashInts(seedInt, world.segments[kind].length);
    world.segments[kind].push({
      start: store.count,
      end: store.count + n,
      seed: segmentSeed,
      fractions,
      chart,
    });
    const init =
      kind === 'bill'
        ? billInit(segmentSeed, request, world.times)
        : objectInit(kind, segmentSeed, fractions, world.times);
    appended[kind] = { first_index: store.append(n, init), count: n };
  }
  const counts = Object.fromEntries(OBJECT_KINDS.map((k) => [k, world.stores[k].count])) as Record<
    ObjectKind,
    number
  >;
  return { seed: request.seed, counts, appended, chart, elapsed_ms: Math.round(performance.now() - started) };
}

function unit(seed: number, index: number, salt: number): number {
  return hashInts(seed, index, salt) / 4294967296;
}

/** The seed's `dates` spread each kind's objects evenly over its range; other kinds keep the default. */
function timeLayoutFor(request: SeedRequest): TimeLayout {
  const layout = defaultTimeLayout();
  for (const kind of OBJECT_KINDS) {
    const range = request.dates?.[`${kind}s` as const];
    if (!range) continue;
    const from = Date.parse(range.from);
    const count = Math.max(1, request[`${kind}s` as const]);
    layout.base[kind] = from;
    layout.step[kind] = Math.max(1, Math.floor((Date.parse(range.to) - from) / count));
  }
  return layout;
}

function objectInit(kind: ObjectKind, seed: number, f: SeedFractions, times: TimeLayout) {
  return (i: number) => {
    const u = unit(seed, i, 77);
    const status =
      u < f.ready_fraction ? S_READY : u < f.ready_fraction + f.synced_fraction ? S_SYNCED : S_NOT_READY;
    return { status, flags: 0, syncedAt: status === S_SYNCED ? timeOf(kind, i, times) + 2 * 86_400_000 : 0 };
  };
}

function billInit(seed: number, request: SeedRequest, times: TimeLayout) {
  const mix = { ...DEFAULT_BILL_MIX, ...request.bill_mix };
  const rows: Array<[number, number, number]> = [
    [mix.not_synced_open, B_NOT_SYNCED, 0],
    [mix.not_synced_paid, B_NOT_SYNCED, FLAG_PAID],
    [mix.bill_synced_paid, B_BILL_SYNCED, FLAG_PAID],
    [mix.bill_synced_open, B_BILL_SYNCED, 0],
    [mix.all_synced, B_ALL_SYNCED, FLAG_PAID],
  ];
  const total = rows.reduce((sum, [w]) => sum + w, 0) || 1;
  return (i: number) => {
    let u = unit(seed, i, 78) * total;
    let row = rows[0]!;
    for (const r of rows) {
      row = r;
      if (u < r[0]) break;
      u -= r[0];
    }
    const disabled = unit(seed, i, 79) < request.sync_disabled_fraction ? FLAG_SYNC_DISABLED : 0;
    const syncedAt = row[1] === B_NOT_SYNCED ? 0 : timeOf('bill', i, times) + 86_400_000;
    return { status: row[1], flags: row[2] | disabled, syncedAt };
  };
}

/**
 * Entities with both shapes of docs/platform.md F27: the platform guide's `name`,
 * `payment_accounts[]` and `bank_accounts[]`, and the published `entity_name`, `accounts[]` (one
 * per bank account, `bank_account_id` = the bank account's id, usage_type BILL_PAY_BANK_ACCOUNT
 * for the bill-pay account and CASH_ACCOUNT for the operating one) and `location_ids`.
 */
function makeEntities(world: World, count: number): Entity[] {
  const created = new Date(world.timeOf('transaction', 0) - 90 * 86_400_000).toISOString();
  return Array.from({ length: count }, (_, n) => {
    const currency = ENTITY_CURRENCIES[n % ENTITY_CURRENCIES.length]!;
    const name = ENTITY_NAMES[n % ENTITY_NAMES.length]! + (n >= ENTITY_NAMES.length ? ` ${n}` : '');
    const bank: BankAccount[] = [
      {
        id: world.auxId('account', 1000 + n * 4),
        account_name: `${name} operating`,
        account_number_last_four: String(1000 + ((n * 37) % 9000)).slice(-4),
        currency,
        usage_type: 'OPERATING',
      },
    ];
    // docs/platform.md G24: the last of three or more entities has no bill-pay account.
    if (count < 3 || n < count - 1) {
      bank.push({
        id: world.auxId('account', 1001 + n * 4),
        account_name: `${name} bill pay`,
        account_number_last_four: String(2000 + ((n * 53) % 8000)).slice(-4),
        currency,
        usage_type: 'BILL_PAY_BANK_ACCOUNT',
      });
    }
    const accounts = bank.map(
      (b, k): EntityAccount => ({
        internal_id: world.auxId('provider_account', n * 4 + k),
        bank_account_id: b.id,
        classification: 'ASSET',
        created_at: created,
        external_id: `${1000 + n * 10 + k}`,
        external_name: b.account_name,
        // The operating account is the published CASH_ACCOUNT; bill pay keeps its name.
        usage_type: b.usage_type === 'OPERATING' ? 'CASH_ACCOUNT' : b.usage_type,
      }),
    );
    return {
      id: world.auxId('entity', n),
      entity_name: name,
      name,
      currency,
      is_primary: n === 0,
      is_active: true,
      accounts,
      location_ids: [world.auxId('location', n)],
      payment_accounts: [
        {
          id: world.auxId('account', 1002 + n * 4),
          account_name: `${name} card program`,
          account_number_last_four: String(3000 + ((n * 71) % 7000)).slice(-4),
          currency,
        },
      ],
      bank_accounts: bank,
    };
  });
}

function makeVendors(world: World, count: number, chart: ChartSnapshot): PlatformVendorRecord[] {
  const created = new Date(world.timeOf('bill', 0) - 30 * 86_400_000).toISOString();
  return Array.from({ length: count }, (_, v) => ({
    id: world.auxId('vendor', v),
    name: VENDOR_NAMES[v % VENDOR_NAMES.length]! + (v >= VENDOR_NAMES.length ? ` ${v}` : ''),
    // 7 in 10 vendors start linked to an accounting vendor; the rest need PATCH /vendors/{id}.
    accounting_vendor_remote_id:
      chart.vendors.length > 0 && v % 10 < 7 ? chart.vendors[v % chart.vendors.length]! : null,
    default_entity_id: world.entities.length > 0 ? world.entities[v % world.entities.length]!.id : null,
    approval_status: 'APPROVED',
    external_vendor_id: null,
    created_at: created,
    updated_at: created,
  }));
}
