import type { Helper, Sql } from 'postgres';

const TABLE_NAMES = [
  'entities',
  'accounts',
  'custom_fields',
  'field_options',
  'vendors',
  'tax_rates',
  'tax_codes',
  'tax_code_rates',
  'posting_defaults',
  'periods',
  'postings',
  'journal_entries',
  'journal_lines',
  'bills',
  'bill_payments',
] as const;

type TableName = (typeof TABLE_NAMES)[number];
export type LedgerTables = Readonly<Record<TableName, Helper<string, []>>> & { readonly schema: string };

/**
 * Schema-qualified identifiers for the ledger's tables, so every query works whatever the
 * pool's search_path is: sql`select * from ${t.accounts}`. postgres.js escapes each
 * dot-separated part as its own identifier ("schema"."accounts"), so a schema name must not
 * contain a dot.
 */
export function ledgerTables(sql: Sql, schema: string): LedgerTables {
  if (schema.includes('.')) throw new Error(`ledger schema name must not contain a dot: ${schema}`);
  const entries = TABLE_NAMES.map((name) => [name, sql(`${schema}.${name}`) as Helper<string, []>]);
  return { ...(Object.fromEntries(entries) as Record<TableName, Helper<string, []>>), schema };
}
