import { currencyExponent, toMajorUnits } from '../../../../src/money.ts';
import type { ConnectionSettings } from '../../../../src/platform/schemas/accounting.ts';
import type { ObjectKind } from '../core/ids.ts';
import { hashInts, Rng } from '../core/prng.ts';
import type { CurrencyAmount, FieldSelection, ValueAmount } from '../schemas/objects.ts';
import { MINOR_PER_USD_CENT } from './catalog.ts';
import type { ObjectExtras } from './object-store.ts';
import type { SelectionResolver } from './selections.ts';
import type { Segment, World } from './world.ts';

/** What every generator needs to turn an index into a full object. */
export interface GenContext {
  world: World;
  resolver: SelectionResolver;
  /** Settings of the active connection (F17 reads the vendor-creation flag), or null. */
  settings: ConnectionSettings | null;
}

export function rngFor(segment: Segment, code: number, index: number): Rng {
  return new Rng(hashInts(segment.seed, code, index));
}

/** Every generator draws its entity first, so list filters can find it without generating. */
export function drawEntity(rng: Rng, world: World) {
  return world.entities.length > 0 ? world.entities[rng.int(0, world.entities.length - 1)]! : null;
}

/** Entity id of a generated object: the first draw of its generator (overrides not applied). */
export function entityIdOf(world: World, kind: ObjectKind, index: number): string | null {
  const rng = rngFor(world.segmentOf(kind, index), world.stores[kind].code, index);
  return drawEntity(rng, world)?.id ?? null;
}

/** An amount drawn in US cents and scaled to the currency's minor unit (JPY 0, KWD 3 decimals). */
export function drawMinor(rng: Rng, currency: string, minCents = 100, maxCents = 250_000): number {
  const cents = rng.int(minCents, maxCents);
  return Math.max(1, Math.round(cents * (MINOR_PER_USD_CENT[currency] ?? 1)));
}

/** Splits a minor-unit total into `parts` non-zero parts that sum exactly to it. */
export function splitMinor(rng: Rng, total: number, parts: number): number[] {
  const sign = total < 0 ? -1 : 1;
  const abs = Math.abs(total);
  if (parts <= 1 || abs < parts) return [total];
  const out: number[] = [];
  let left = abs;
  for (let p = parts; p > 1; p--) {
    const share = Math.max(1, Math.min(left - (p - 1), Math.round((left / p) * (0.5 + rng.next()))));
    out.push(share * sign);
    left -= share;
  }
  out.push(left * sign);
  return out;
}

export const major = toMajorUnits;

/**
 * docs/platform.md F22: a CurrencyAmount `{amount: integer minor units, currency_code}`, with the
 * 2026 reference's `minor_unit_conversion_rate`.
 */
export function money(minor: number, currency: string): CurrencyAmount {
  return { amount: minor, currency_code: currency, minor_unit_conversion_rate: minorUnitRate(currency) };
}

/**
 * docs/platform.md F22: the `{currency, value}` form production clients see on `entity_amount` and
 * `merchant_amount`, `value` in minor units (the platform guide: minor units plus a currency).
 */
export function valueAmount(minor: number, currency: string): ValueAmount {
  return { currency, value: minor };
}

/** docs/platform.md F23: minor units per major unit of the currency (USD 100, JPY 1, KWD 1000). */
export function minorUnitRate(currency: string): number {
  return 10 ** currencyExponent(currency);
}

/** ISO date (YYYY-MM-DD) of a time, where the published reference says `format: date`. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export type CodingMode = 'coded' | 'uncoded' | 'unknown';

export function drawCodingMode(rng: Rng, segment: Segment): CodingMode {
  const u = rng.next();
  if (u < segment.fractions.uncoded_fraction) return 'uncoded';
  if (u < segment.fractions.uncoded_fraction + segment.fractions.unknown_coding_fraction) return 'unknown';
  return 'coded';
}

/** GL (+ one custom field option, 70%) for one line; none when uncoded; an unknown GL id when asked. */
export function drawLineSelections(
  rng: Rng,
  segment: Segment,
  resolver: SelectionResolver,
  mode: CodingMode,
): FieldSelection[] {
  const { chart } = segment;
  const glPick = chart.gl_accounts.length > 0 ? rng.pick(chart.gl_accounts) : null;
  const field = chart.fields.length > 0 ? rng.pick(chart.fields) : null;
  const withOption = rng.chance(0.7) && field !== null && field.options.length > 0;
  const optionPick = field && field.options.length > 0 ? rng.pick(field.options) : null;
  const unknownId = `GL-UNKNOWN-${rng.int(1, 999)}`;
  if (mode === 'uncoded') return [];
  const out: FieldSelection[] = [];
  if (mode === 'unknown') out.push(resolver.gl(unknownId));
  else if (glPick) out.push(resolver.gl(glPick));
  if (withOption && field && optionPick) out.push(resolver.option(field.id, optionPick));
  return out;
}

/** Body-level selections with POST /accounting/codings applied (F18): same field replaced. */
export function applyCodings(
  selections: FieldSelection[],
  extras: ObjectExtras | undefined,
): FieldSelection[] {
  if (!extras?.codings || extras.codings.size === 0) return selections;
  const coded = extras.codings;
  const kept = selections.filter((s) => !coded.has(s.category_info.external_id));
  return [...kept, ...coded.values()];
}

/** Merges PATCH /__stub/objects overrides over a generated object. */
export function withOverrides<T extends object>(object: T, extras: ObjectExtras | undefined): T {
  return extras?.overrides ? { ...object, ...extras.overrides } : object;
}

/**
 * `{[key]: value}`, or nothing when the value is null: docs/platform.md F36 fields are left out,
 * never sent as null.
 */
export function present<K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } {
  return (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function syncedAtIso(ctx: GenContext, kind: ObjectKind, index: number): string | null {
  const store = ctx.world.stores[kind];
  const at = store.syncedAtOf(index);
  return store.statusOf(index) === 0 || at === 0 ? null : iso(at);
}
