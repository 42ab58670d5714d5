import type { Sql } from 'postgres';
import type { CustomField, ErpVendor, FieldOption, GlAccount } from '../../src/erp/index.ts';
import { LedgerChartWriter, migrateLedger } from '../../src/erp/index.ts';

export interface ChartSize {
  accounts: number;
  vendors: number;
  /** Options in all, split evenly over two single-choice fields. */
  options: number;
}

const pad = (i: number) => String(i).padStart(6, '0');

/** A ledger whose chart has the given size: all items active and visible, names unique. */
export async function writeLargeChart(sql: Sql, schema: string, size: ChartSize): Promise<void> {
  await migrateLedger(sql, schema);
  const write = new LedgerChartWriter(sql, schema);
  const accounts: GlAccount[] = Array.from({ length: size.accounts }, (_, i) => ({
    id: `gl-${pad(i)}`,
    code: String(100000 + i),
    name: `Account ${pad(i)}`,
    classification: i % 4 === 0 ? 'ASSET' : 'EXPENSE',
    active: true,
    hidden: false,
  }));
  const fields: CustomField[] = ['project', 'location'].map((id) => ({
    id,
    name: id,
    inputType: 'SINGLE_CHOICE',
    active: true,
    hidden: false,
    requiredFor: [],
  }));
  const perField = Math.ceil(size.options / fields.length);
  const options: FieldOption[] = fields.flatMap((f) =>
    Array.from({ length: perField }, (_, i) => ({
      fieldId: f.id,
      id: `${f.id}-${pad(i)}`,
      value: `${f.id} ${pad(i)}`,
      code: pad(i),
      active: true,
      hidden: false,
    })),
  );
  const vendors: ErpVendor[] = Array.from({ length: size.vendors }, (_, i) => ({
    id: `ven-${pad(i)}`,
    name: `Vendor ${pad(i)}`,
    code: `V${pad(i)}`,
    active: true,
  }));
  await write.accounts(accounts);
  await write.fields(fields);
  await write.options(options);
  await write.vendors(vendors);
}

/** Fewest calls a mirror of this chart needs: uploads of 500 (F8, F10, F11), one per field (F9). */
export function minimumChartCalls(size: ChartSize, fields = 2): number {
  const perField = Math.ceil(size.options / fields);
  return (
    Math.ceil(size.accounts / 500) +
    fields +
    fields * Math.ceil(perField / 500) +
    Math.ceil(size.vendors / 500)
  );
}
