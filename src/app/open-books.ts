import type { Sql } from 'postgres';
import { LedgerChartWriter } from '../erp/index.ts';
import { currencyExponent } from '../money.ts';
import type { Entity } from '../platform/index.ts';

/**
 * Opens books in the built-in ERP for the platform's entities (subsidiaries), each in its own
 * currency: the step an integrator does once per customer, so postings for an entity land in
 * its books. Existing entities are kept; returns how many were added. An entity whose currency
 * the platform does not say gets no books (guessing one would post into the wrong currency):
 * its objects then fail with "Entity … has no books", which names it.
 */
export function importPlatformEntities(
  sql: Sql,
  schema: string,
  entities: readonly Entity[],
): Promise<number> {
  return new LedgerChartWriter(sql, schema).entities(
    entities.flatMap((e) =>
      e.currency
        ? [
            {
              id: e.id,
              name: e.name,
              currency: { code: e.currency, exponent: currencyExponent(e.currency) },
              isDefault: false,
            },
          ]
        : [],
    ),
  );
}
