import type { ChartSource } from '../mirror/index.ts';

/**
 * The remote ids the ERP expects active on the platform, per list of the platform chart: active
 * items (hidden ones included: hidden stays active, docs/platform.md G17), options of active fields
 * as "field/option", every tax rate (rates have no active flag).
 */
export type ExpectedIds = Record<
  'gl_accounts' | 'fields' | 'field_options' | 'vendors' | 'tax_rates' | 'tax_code_options',
  Set<string>
>;

export async function expectedIds(erp: ChartSource): Promise<ExpectedIds> {
  const out: ExpectedIds = {
    gl_accounts: new Set(),
    fields: new Set(),
    field_options: new Set(),
    vendors: new Set(),
    tax_rates: new Set(),
    tax_code_options: new Set(),
  };
  for await (const a of erp.glAccounts()) if (a.active) out.gl_accounts.add(a.id);
  const fields: string[] = [];
  for await (const f of erp.customFields()) {
    if (!f.active) continue;
    out.fields.add(f.id);
    fields.push(f.id);
  }
  for (const field of fields) {
    for await (const o of erp.fieldOptions(field)) if (o.active) out.field_options.add(`${field}/${o.id}`);
  }
  for await (const v of erp.vendors()) if (v.active) out.vendors.add(v.id);
  for await (const r of erp.taxRates()) out.tax_rates.add(r.id);
  for await (const c of erp.taxCodes()) if (c.active) out.tax_code_options.add(c.id);
  return out;
}
