import type { Sql } from 'postgres';
import type { Entity } from '../../platform/schemas/entities.ts';
import { currencyExponent } from '../../sync/map/money.ts';
import { LedgerChartWriter } from './chart-write.ts';

/**
 * Opens books in the built-in ledger for the platform's entities (subsidiaries), each in its own
 * currency: the step an integrator does once per customer, so postings for an entity land in
 * its books. Existing entities are kept; returns how many were added.
 */
export function importPlatformEntities(
  sql: Sql,
  schema: string,
  entities: readonly Entity[],
): Promise<number> {
  return new LedgerChartWriter(sql, schema).entities(
    entities.map((e) => ({
      id: e.id,
      name: e.name,
      currency: { code: e.currency.toUpperCase(), exponent: currencyExponent(e.currency) },
      isDefault: false,
    })),
  );
}
