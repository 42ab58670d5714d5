import type { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from '../chart.ts';
import type { DefaultRole } from '../core/roles.ts';
import type { EntityInput } from './chart-write.ts';
import {
  BASE_ACCOUNTS,
  CLASSES,
  DEFAULT_ACCOUNT_CODES,
  DEPARTMENTS,
  EXPENSE_CATEGORIES,
  KNOWN_VENDORS,
  LOCATIONS,
  PROJECT_WORDS,
  TEAMS,
  VENDOR_PREFIXES,
  VENDOR_SUFFIXES,
} from './seed-data.ts';

/**
 * A realistic chart of accounts, generated from a preset and a seed: the same (preset, seed)
 * always gives the same chart, item for item. `small` is a company of ~150 GL accounts, 4 custom
 * fields, ~80 vendors and a handful of taxes; `large` scales the same shape to ~100k items.
 */

export type SeedPreset = 'small' | 'large';

export interface SeedChart {
  entities: EntityInput[];
  accounts: GlAccount[];
  fields: CustomField[];
  options: FieldOption[];
  vendors: ErpVendor[];
  taxRates: TaxRate[];
  taxCodes: TaxCode[];
  defaults: Record<DefaultRole, string>;
}

const SIZES = {
  small: { accounts: 150, projects: 30, vendors: 80 },
  large: { accounts: 1500, projects: 48_000, vendors: 50_000 },
} as const;

/** mulberry32: a tiny seeded PRNG, enough to make a chart reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const accountId = (code: string) => `gl-${code}`;

function accounts(target: number, random: () => number): GlAccount[] {
  const base = BASE_ACCOUNTS.map(([code, name, classification]) => ({ code, name, classification }));
  const extra: { code: string; name: string; classification: 'EXPENSE' }[] = [];
  for (let n = 0; base.length + extra.length < target; n++) {
    const category = EXPENSE_CATEGORIES[n % EXPENSE_CATEGORIES.length]!;
    const team = TEAMS[Math.floor(n / EXPENSE_CATEGORIES.length) % TEAMS.length]!;
    const round = Math.floor(n / (EXPENSE_CATEGORIES.length * TEAMS.length));
    const name = round === 0 ? `${category} - ${team}` : `${category} - ${team} ${round + 1}`;
    extra.push({ code: String(7000 + n), name, classification: 'EXPENSE' });
  }
  // A few generated accounts are inactive or hidden, as in any chart with history.
  return [...base, ...extra].map((a, index) => {
    const generated = index >= base.length;
    const roll = generated ? random() : 1;
    return { id: accountId(a.code), ...a, active: roll >= 0.03, hidden: roll >= 0.03 && roll < 0.05 };
  });
}

function options(fieldId: string, values: readonly string[], random: () => number): FieldOption[] {
  return values.map((value, i) => {
    const code = String(i + 1).padStart(values.length > 999 ? 5 : 3, '0');
    return { fieldId, id: `${fieldId}-${code}`, value, code, active: random() >= 0.04, hidden: false };
  });
}

function projectNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const word = PROJECT_WORDS[i % PROJECT_WORDS.length]!;
    return `PRJ-${String(i + 1).padStart(5, '0')} ${word}`;
  });
}

function fields(projects: number, random: () => number): Pick<SeedChart, 'fields' | 'options'> {
  const field = (id: string, name: string): CustomField => ({
    id,
    name,
    inputType: 'SINGLE_CHOICE',
    active: true,
    hidden: false,
    requiredFor: [],
  });
  return {
    fields: [
      field('department', 'Department'),
      field('class', 'Class'),
      field('location', 'Location'),
      field('project', 'Project'),
    ],
    options: [
      ...options('department', DEPARTMENTS, random),
      ...options('class', CLASSES, random),
      ...options('location', LOCATIONS, random),
      ...options('project', projectNames(projects), random),
    ],
  };
}

function vendors(count: number, random: () => number): ErpVendor[] {
  const names: string[] = [...KNOWN_VENDORS];
  const combos = VENDOR_PREFIXES.length * VENDOR_SUFFIXES.length;
  for (let n = 0; names.length < count; n++) {
    const prefix = VENDOR_PREFIXES[n % VENDOR_PREFIXES.length]!;
    const suffix = VENDOR_SUFFIXES[Math.floor(n / VENDOR_PREFIXES.length) % VENDOR_SUFFIXES.length]!;
    const round = Math.floor(n / combos);
    names.push(round === 0 ? `${prefix} ${suffix}` : `${prefix} ${suffix} ${round + 1}`);
  }
  return names.slice(0, count).map((name, i) => {
    const code = `V${String(i + 1).padStart(5, '0')}`;
    return { id: `ven-${String(i + 1).padStart(5, '0')}`, name, code, active: random() >= 0.03 };
  });
}

function taxes(): Pick<SeedChart, 'taxRates' | 'taxCodes'> {
  const rate = (id: string, name: string, value: string, code: string): TaxRate => ({
    id,
    name,
    rate: value,
    glAccountId: accountId(code),
  });
  const taxCode = (id: string, name: string, rateIds: string[], active = true): TaxCode => ({
    id,
    name,
    rateIds,
    active,
  });
  return {
    taxRates: [
      rate('tr-vat20', 'VAT 20% (input)', '0.2', '1400'),
      rate('tr-vat5', 'VAT 5% (input)', '0.05', '1400'),
      rate('tr-gst10', 'GST 10%', '0.1', '1410'),
      rate('tr-rc20-in', 'Reverse charge 20% (input)', '0.2', '1400'),
      rate('tr-rc20-out', 'Reverse charge 20% (output)', '-0.2', '2310'),
      rate('tr-zero', 'Zero rated', '0', '1400'),
      rate('tr-vat175', 'VAT 17.5% (input, old)', '0.175', '1400'),
    ],
    taxCodes: [
      taxCode('tc-vat20', 'VAT 20%', ['tr-vat20']),
      taxCode('tc-vat5', 'VAT 5%', ['tr-vat5']),
      taxCode('tc-gst10', 'GST 10%', ['tr-gst10']),
      taxCode('tc-rc20', 'Reverse charge 20%', ['tr-rc20-in', 'tr-rc20-out']),
      taxCode('tc-zero', 'Zero rated', ['tr-zero']),
      taxCode('tc-exempt', 'Exempt', []),
      taxCode('tc-vat175', 'VAT 17.5% (old)', ['tr-vat175'], false),
    ],
  };
}

export function generateChart(preset: SeedPreset, seed: number): SeedChart {
  const size = SIZES[preset];
  const random = seededRandom(seed);
  const defaults = Object.fromEntries(
    Object.entries(DEFAULT_ACCOUNT_CODES).map(([role, code]) => [role, accountId(code)]),
  ) as Record<DefaultRole, string>;
  return {
    entities: [
      { id: 'ent-us', name: 'Acme Inc.', currency: { code: 'USD', exponent: 2 }, isDefault: true },
      { id: 'ent-uk', name: 'Acme UK Ltd', currency: { code: 'GBP', exponent: 2 }, isDefault: false },
      { id: 'ent-jp', name: 'Acme Japan KK', currency: { code: 'JPY', exponent: 0 }, isDefault: false },
    ],
    accounts: accounts(size.accounts, random),
    ...fields(size.projects, random),
    vendors: vendors(size.vendors, random),
    ...taxes(),
    defaults,
  };
}
