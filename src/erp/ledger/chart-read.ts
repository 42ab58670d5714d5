import type { Sql } from 'postgres';
import type { CustomField, ErpVendor, FieldOption, GlAccount, TaxCode, TaxRate } from '../chart.ts';
import type { LedgerTables } from './tables.ts';

/**
 * The chart of accounts as streams, read in keyset pages of PAGE_SIZE by id: memory stays flat
 * for a 100k-item chart, and no transaction or cursor is held between pages.
 */

const PAGE_SIZE = 1000;

async function* keyset<T>(
  fetch: (after: string, limit: number) => Promise<readonly T[]>,
  keyOf: (row: T) => string,
) {
  let after = '';
  for (;;) {
    const rows = await fetch(after, PAGE_SIZE);
    yield* rows;
    if (rows.length < PAGE_SIZE) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}

// Compare and order by the same (default) collation, so the primary key index serves each page.

export function readGlAccounts(sql: Sql, t: LedgerTables): AsyncIterable<GlAccount> {
  return keyset(
    (after, limit) => sql<GlAccount[]>`
      select id, name, code, classification, active, hidden from ${t.accounts}
       where id > ${after} order by id limit ${limit}`,
    (row) => row.id,
  );
}

export function readCustomFields(sql: Sql, t: LedgerTables): AsyncIterable<CustomField> {
  return keyset(
    (after, limit) => sql<CustomField[]>`
      select id, name, input_type as "inputType", active, hidden, required_for as "requiredFor"
        from ${t.custom_fields}
       where id > ${after} order by id limit ${limit}`,
    (row) => row.id,
  );
}

export function readFieldOptions(sql: Sql, t: LedgerTables, fieldId: string): AsyncIterable<FieldOption> {
  return keyset(
    (after, limit) => sql<FieldOption[]>`
      select field_id as "fieldId", id, value, code, active, hidden from ${t.field_options}
       where field_id = ${fieldId} and id > ${after} order by id limit ${limit}`,
    (row) => row.id,
  );
}

export function readVendors(sql: Sql, t: LedgerTables): AsyncIterable<ErpVendor> {
  return keyset(
    (after, limit) => sql<ErpVendor[]>`
      select id, name, code, active from ${t.vendors}
       where id > ${after} order by id limit ${limit}`,
    (row) => row.id,
  );
}

export function readTaxRates(sql: Sql, t: LedgerTables): AsyncIterable<TaxRate> {
  return keyset(
    // rate::text of numeric(10,6) is "0.050000"; trim trailing zeros for the platform ("0.05").
    (after, limit) => sql<TaxRate[]>`
      select id, name, trim_scale(rate)::text as rate, account_id as "glAccountId" from ${t.tax_rates}
       where id > ${after} order by id limit ${limit}`,
    (row) => row.id,
  );
}

export function readTaxCodes(sql: Sql, t: LedgerTables): AsyncIterable<TaxCode> {
  return keyset(
    (after, limit) => sql<TaxCode[]>`
      select c.id, c.name, c.active,
             coalesce(array_agg(cr.tax_rate_id order by cr.tax_rate_id) filter (where cr.tax_rate_id is not null),
                      '{}') as "rateIds"
        from ${t.tax_codes} c
        left join ${t.tax_code_rates} cr on cr.tax_code_id = c.id
       where c.id > ${after}
       group by c.id
       order by c.id limit ${limit}`,
    (row) => row.id,
  );
}
