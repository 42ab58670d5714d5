import type { Sql } from 'postgres';
import type { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from '../chart.ts';
import type { DefaultRole } from '../core/roles.ts';
import type { Currency } from '../types.ts';
import { type LedgerTables, ledgerTables } from './tables.ts';

/**
 * Writing the ledger's chart of accounts: what a bookkeeper does in an ERP's own screens (the
 * seed, tests and the CLI use it). Inserts skip ids that already exist, so seeding twice is a
 * no-op; rows travel as one JSON parameter per chunk of CHUNK rows.
 */

const CHUNK = 5000;

export interface EntityInput {
  id: string;
  name: string;
  currency: Currency;
  isDefault: boolean;
}

async function insertChunked<T>(
  rows: readonly T[],
  insert: (json: string) => Promise<{ count: number }>,
  toRow: (row: T) => Record<string, unknown>,
): Promise<number> {
  let count = 0;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const result = await insert(JSON.stringify(rows.slice(start, start + CHUNK).map(toRow)));
    count += result.count;
  }
  return count;
}

export class LedgerChartWriter {
  private readonly t: LedgerTables;

  constructor(
    private readonly sql: Sql,
    schema: string,
  ) {
    this.t = ledgerTables(sql, schema);
  }

  entities(rows: readonly EntityInput[]): Promise<number> {
    const { sql, t } = this;
    return insertChunked(
      rows,
      (json) => sql`
        insert into ${t.entities} (id, name, currency, currency_exponent, is_default)
        select * from json_to_recordset(${json}::text::json)
          as r(id text, name text, currency text, currency_exponent smallint, is_default boolean)
        on conflict do nothing`,
      (e) => ({
        id: e.id,
        name: e.name,
        currency: e.currency.code,
        currency_exponent: e.currency.exponent,
        is_default: e.isDefault,
      }),
    );
  }

  accounts(rows: readonly GlAccount[]): Promise<number> {
    const { sql, t } = this;
    return insertChunked(
      rows,
      (json) => sql`
        insert into ${t.accounts} (id, code, name, classification, active, hidden)
        select * from json_to_recordset(${json}::text::json)
          as r(id text, code text, name text, classification text, active boolean, hidden boolean)
        on conflict do nothing`,
      (a) => ({
        id: a.id,
        code: a.code,
        name: a.name,
        classification: a.classification,
        active: a.active,
        hidden: a.hidden,
      }),
    );
  }

  fields(rows: readonly CustomField[]): Promise<number> {
    const { sql, t } = this;
    return insertChunked(
      rows,
      (json) => sql`
        insert into ${t.custom_fields} (id, name, input_type, required_for, active, hidden)
        select id, name, input_type, array(select json_array_elements_text(required_for)), active, hidden
          from json_to_recordset(${json}::text::json)
            as r(id text, name text, input_type text, required_for json, active boolean, hidden boolean)
        on conflict do nothing`,
      (f) => ({
        id: f.id,
        name: f.name,
        input_type: f.inputType,
        required_for: f.requiredFor,
        active: f.active,
        hidden: f.hidden,
      }),
    );
  }

  options(rows: readonly FieldOption[]): Promise<number> {
    const { sql, t } = this;
    return insertChunked(
      rows,
      (json) => sql`
        insert into ${t.field_options} (field_id, id, value, code, active, hidden)
        select * from json_to_recordset(${json}::text::json)
          as r(field_id text, id text, value text, code text, active boolean, hidden boolean)
        on conflict do nothing`,
      (o) => ({
        field_id: o.fieldId,
        id: o.id,
        value: o.value,
        code: o.code,
        active: o.active,
        hidden: o.hidden,
      }),
    );
  }

  vendors(rows: readonly ErpVendor[]): Promise<number> {
    const { sql, t } = this;
    return insertChunked(
      rows,
      (json) => sql`
        insert into ${t.vendors} (id, name, code, active)
        select * from json_to_recordset(${json}::text::json) as r(id text, name text, code text, active boolean)
        on conflict do nothing`,
      (v) => ({ id: v.id, name: v.name, code: v.code, active: v.active }),
    );
  }

  taxRates(rows: readonly TaxRate[]): Promise<number> {
    const { sql, t } = this;
    return insertChunked(
      rows,
      (json) => sql`
        insert into ${t.tax_rates} (id, name, rate, account_id)
        select * from json_to_recordset(${json}::text::json) as r(id text, name text, rate numeric, account_id text)
        on conflict do nothing`,
      (r) => ({ id: r.id, name: r.name, rate: r.rate, account_id: r.glAccountId }),
    );
  }

  async taxCodes(rows: readonly TaxCode[]): Promise<number> {
    const { sql, t } = this;
    const count = await insertChunked(
      rows,
      (json) => sql`
        insert into ${t.tax_codes} (id, name, active)
        select * from json_to_recordset(${json}::text::json) as r(id text, name text, active boolean)
        on conflict do nothing`,
      (c) => ({ id: c.id, name: c.name, active: c.active }),
    );
    const links = rows.flatMap((c) =>
      c.rateIds.map((rateId) => ({ tax_code_id: c.id, tax_rate_id: rateId })),
    );
    await insertChunked(
      links,
      (json) => sql`
        insert into ${t.tax_code_rates} (tax_code_id, tax_rate_id)
        select * from json_to_recordset(${json}::text::json) as r(tax_code_id text, tax_rate_id text)
        on conflict do nothing`,
      (l) => l,
    );
    return count;
  }

  /** Sets (or replaces) the account each role falls back to. */
  async postingDefaults(defaults: Partial<Record<DefaultRole, string>>): Promise<void> {
    const { sql, t } = this;
    for (const [role, accountId] of Object.entries(defaults)) {
      if (!accountId) continue;
      await sql`
        insert into ${t.posting_defaults} (role, account_id) values (${role}, ${accountId})
        on conflict (role) do update set account_id = excluded.account_id`;
    }
  }
}
