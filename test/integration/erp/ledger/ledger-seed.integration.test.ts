import { describe, expect, it } from 'vitest';
import { createErp } from '../../../../src/erp/index.ts';
import { collect } from '../../../../src/erp/kit/index.ts';
import { chartSummary } from '../../../../src/erp/ledger/chart-summary.ts';
import { seedLedger } from '../../../../src/erp/ledger/seed.ts';
import { useTestDatabase } from '../../../support/db.ts';

const db = useTestDatabase({ migrate: false });

async function chartOf(schema: string) {
  const erp = createErp({ kind: 'ledger', sql: db.sql, schema });
  const fields = await collect(erp.customFields());
  const options = [];
  for (const field of fields) options.push(...(await collect(erp.fieldOptions(field.id))));
  return {
    accounts: await collect(erp.glAccounts()),
    fields,
    options,
    vendors: await collect(erp.vendors()),
    taxRates: await collect(erp.taxRates()),
    taxCodes: await collect(erp.taxCodes()),
  };
}

describe('seedLedger', () => {
  it('loads the small chart, and a second seed changes nothing', async () => {
    const schema = db.newSchema('seed_a');
    const counts = await seedLedger(db.sql, schema, { preset: 'small', seed: 9 });
    expect(counts).toMatchObject({
      entities: 3,
      accounts: 150,
      fields: 4,
      vendors: 80,
      taxRates: 7,
      taxCodes: 7,
    });
    expect(await seedLedger(db.sql, schema, { preset: 'small', seed: 9 })).toEqual({
      entities: 0,
      accounts: 0,
      fields: 0,
      options: 0,
      vendors: 0,
      taxRates: 0,
      taxCodes: 0,
    });
    const chart = await chartOf(schema);
    expect(chart.taxRates.find((r) => r.id === 'tr-rc20-out')).toMatchObject({
      rate: '-0.2',
      glAccountId: 'gl-2310',
    });
    expect(chart.taxCodes.find((c) => c.id === 'tc-rc20')?.rateIds).toEqual(['tr-rc20-in', 'tr-rc20-out']);
  });

  it('reproduces the same chart from the same seed in another schema', async () => {
    const a = db.newSchema('seed_b');
    const b = db.newSchema('seed_c');
    await seedLedger(db.sql, a, { seed: 21 });
    await seedLedger(db.sql, b, { seed: 21 });
    expect(await chartOf(b)).toEqual(await chartOf(a));
  });

  it('summarises the usable chart for the platform stub', async () => {
    const schema = db.newSchema('seed_d');
    await seedLedger(db.sql, schema, { seed: 9 });
    const summary = await chartSummary(db.sql, schema);
    expect(summary.gl_accounts.length).toBeGreaterThan(100);
    expect(summary.gl_accounts).not.toContain('gl-2100');
    expect(summary.fields.map((f) => f.id)).toEqual(['class', 'department', 'location', 'project']);
    expect(summary.vendors.length).toBeGreaterThan(70);
    expect(summary.tax_codes).toContain('tc-vat20');
    expect(summary.tax_codes).not.toContain('tc-vat175');
  });

  it('loads the large chart (~100k items) and streams it page by page', async () => {
    const schema = db.newSchema('seed_large');
    const started = performance.now();
    const counts = await seedLedger(db.sql, schema, { preset: 'large', seed: 1 });
    const seconds = (performance.now() - started) / 1000;
    console.info(
      `large seed: ${counts.accounts + counts.options + counts.vendors} items in ${seconds.toFixed(1)} s`,
    );
    expect(counts.accounts + counts.options + counts.vendors).toBeGreaterThan(95_000);
    const erp = createErp({ kind: 'ledger', sql: db.sql, schema });
    const vendors = await collect(erp.vendors());
    expect(vendors).toHaveLength(counts.vendors);
    expect(new Set(vendors.map((v) => v.id)).size).toBe(vendors.length);
  });
});
