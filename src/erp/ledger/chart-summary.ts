import type { Sql } from 'postgres';
import { ledgerTables } from './tables.ts';

/**
 * The remote ids a generator may code objects with, in the shape the platform stub's seed
 * endpoint takes (`chart`): expense accounts, single-choice fields with their options, vendors
 * and tax codes, all active and visible. Objects coded from it post without refusals (unless a
 * field is required for a kind and the generator leaves it out: `requiredFor` says which).
 */
export interface ChartSummary {
  gl_accounts: string[];
  fields: { id: string; options: string[]; required_for: string[] }[];
  vendors: string[];
  tax_codes: string[];
}

export async function chartSummary(sql: Sql, schema: string): Promise<ChartSummary> {
  const t = ledgerTables(sql, schema);
  const [accounts, fields, options, vendors, taxCodes] = await Promise.all([
    sql<{ id: string }[]>`select id from ${t.accounts}
      where active and not hidden and classification = 'EXPENSE' order by id`,
    sql<
      { id: string; requiredFor: string[] }[]
    >`select id, required_for as "requiredFor" from ${t.custom_fields}
      where active and not hidden and input_type = 'SINGLE_CHOICE' order by id`,
    sql<{ fieldId: string; id: string }[]>`select field_id as "fieldId", id from ${t.field_options}
      where active and not hidden order by field_id, id`,
    sql<{ id: string }[]>`select id from ${t.vendors} where active order by id`,
    // A tax code is usable only when every rate's account is active too.
    sql<{ id: string }[]>`select c.id from ${t.tax_codes} c where c.active and not exists (
        select 1 from ${t.tax_code_rates} cr join ${t.tax_rates} r on r.id = cr.tax_rate_id
          join ${t.accounts} a on a.id = r.account_id
         where cr.tax_code_id = c.id and not a.active)
      order by c.id`,
  ]);
  const byField = new Map<string, string[]>();
  for (const o of options) {
    const list = byField.get(o.fieldId);
    if (list) list.push(o.id);
    else byField.set(o.fieldId, [o.id]);
  }
  return {
    gl_accounts: accounts.map((a) => a.id),
    fields: fields.map((f) => ({ id: f.id, options: byField.get(f.id) ?? [], required_for: f.requiredFor })),
    vendors: vendors.map((v) => v.id),
    tax_codes: taxCodes.map((c) => c.id),
  };
}
