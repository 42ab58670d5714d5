import type { Sql } from 'postgres';
import { type LedgerTables, ledgerTables } from './tables.ts';

/**
 * The bookkeeper's maintenance actions on the ledger: (de)activating chart items, hiding them,
 * closing and reopening months. Each returns whether a row changed.
 */
export class LedgerAdmin {
  private readonly t: LedgerTables;

  constructor(
    private readonly sql: Sql,
    schema: string,
  ) {
    this.t = ledgerTables(sql, schema);
  }

  async setAccountActive(id: string, active: boolean): Promise<boolean> {
    const result = await this.sql`update ${this.t.accounts} set active = ${active} where id = ${id}`;
    return result.count > 0;
  }

  async setAccountHidden(id: string, hidden: boolean): Promise<boolean> {
    const result = await this.sql`update ${this.t.accounts} set hidden = ${hidden} where id = ${id}`;
    return result.count > 0;
  }

  async setVendorActive(id: string, active: boolean): Promise<boolean> {
    const result = await this.sql`update ${this.t.vendors} set active = ${active} where id = ${id}`;
    return result.count > 0;
  }

  async setOptionActive(fieldId: string, id: string, active: boolean): Promise<boolean> {
    const result = await this.sql`
      update ${this.t.field_options} set active = ${active} where field_id = ${fieldId} and id = ${id}`;
    return result.count > 0;
  }

  async setTaxCodeActive(id: string, active: boolean): Promise<boolean> {
    const result = await this.sql`update ${this.t.tax_codes} set active = ${active} where id = ${id}`;
    return result.count > 0;
  }

  /** Object kinds whose lines must carry an option of this field ([] to make it optional). */
  async setFieldRequiredFor(fieldId: string, kinds: readonly string[]): Promise<boolean> {
    const result = await this.sql`
      update ${this.t.custom_fields} set required_for = ${kinds as string[]}::text[] where id = ${fieldId}`;
    return result.count > 0;
  }

  /** Closes a calendar month, "2024-01": no entry may be dated in it afterwards. */
  async closePeriod(month: string): Promise<void> {
    const start = monthStart(month);
    await this.sql`
      insert into ${this.t.periods} as p (period_start, period_end, closed_at)
      values (${start}::date, (${start}::date + interval '1 month' - interval '1 day')::date, now())
      on conflict (period_start) do update set closed_at = coalesce(p.closed_at, now())`;
  }

  async reopenPeriod(month: string): Promise<void> {
    await this
      .sql`update ${this.t.periods} set closed_at = null where period_start = ${monthStart(month)}::date`;
  }
}

function monthStart(month: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new Error(`a month is YYYY-MM, got ${month}`);
  return `${month}-01`;
}
