import type { ChartSource } from '../mirror/index.ts';
import { type ExpectedIds, expectedIds } from './erp-chart.ts';
import type { PlatformChart, PlatformItem } from './platform-chart.ts';

/** Differences named per list, at most this many each (the counts say how many in all). */
const NAMED = 10;

interface ListCheck {
  erp: number;
  platform: number;
  missing: string[];
  extra: string[];
  duplicates: string[];
}

export interface Verification {
  ok: boolean;
  lists: Record<keyof ExpectedIds, ListCheck>;
}

/**
 * The preload check of step 5: the new connection holds exactly the ERP's chart, list by list:
 * the same count of active items, the same remote ids, none twice. Inactive platform items are
 * left out (a deactivated item is how the platform removes one, F12).
 */
export async function verifyPreload(erp: ChartSource, chart: PlatformChart): Promise<Verification> {
  const expected = await expectedIds(erp);
  const activeFields = chart.fields.filter((f) => f.is_active);
  const actual: Record<keyof ExpectedIds, string[]> = {
    gl_accounts: activeIds(chart.gl_accounts),
    fields: activeIds(chart.fields),
    field_options: activeFields.flatMap((f) => activeIds(f.options).map((id) => `${f.id}/${id}`)),
    vendors: activeIds(chart.vendors),
    tax_rates: activeIds(chart.tax_rates),
    tax_code_options: activeIds(chart.tax_code_options),
  };
  const lists = {} as Verification['lists'];
  for (const list of Object.keys(expected) as Array<keyof ExpectedIds>) {
    lists[list] = compare(expected[list], actual[list]);
  }
  const ok =
    chart.unreadable.length === 0 &&
    Object.values(lists).every((l) => l.missing.length + l.extra.length + l.duplicates.length === 0);
  return { ok, lists };
}

function activeIds(items: readonly PlatformItem[]): string[] {
  return items.filter((i) => i.is_active).map((i) => i.id);
}

function compare(expected: Set<string>, actual: readonly string[]): ListCheck {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const id of actual) {
    if (seen.has(id)) duplicates.add(id);
    seen.add(id);
  }
  const missing = [...expected].filter((id) => !seen.has(id));
  const extra = [...seen].filter((id) => !expected.has(id));
  return {
    erp: expected.size,
    platform: actual.length,
    missing: missing.slice(0, NAMED),
    extra: extra.slice(0, NAMED),
    duplicates: [...duplicates].slice(0, NAMED),
  };
}

/** One line per list that differs, for the person reading the message. */
export function describeDifferences(verification: Verification): string[] {
  return Object.entries(verification.lists)
    .filter(([, l]) => l.missing.length + l.extra.length + l.duplicates.length > 0)
    .map(([list, l]) => {
      const parts = [`${list}: ERP ${l.erp}, platform ${l.platform}`];
      if (l.missing.length) parts.push(`missing ${l.missing.join(', ')}`);
      if (l.extra.length) parts.push(`not in the ERP ${l.extra.join(', ')}`);
      if (l.duplicates.length) parts.push(`twice ${l.duplicates.join(', ')}`);
      return parts.join('; ');
    });
}
