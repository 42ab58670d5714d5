import { describe, expect, it } from 'vitest';
import { GlClassification } from '../../../../src/erp/chart.ts';
import { generateChart } from '../../../../src/erp/ledger/seed-chart.ts';

describe('generateChart', () => {
  it('small: ~150 accounts across every classification, 4 fields, ~80 vendors, taxes', () => {
    const chart = generateChart('small', 1);
    expect(chart.accounts).toHaveLength(150);
    expect(new Set(chart.accounts.map((a) => a.classification))).toEqual(new Set(GlClassification.options));
    expect(chart.fields.map((f) => f.name)).toEqual(['Department', 'Class', 'Location', 'Project']);
    expect(chart.vendors).toHaveLength(80);
    expect(chart.taxRates.some((r) => r.rate.startsWith('-'))).toBe(true);
    expect(chart.taxCodes.length).toBeGreaterThanOrEqual(5);
  });

  it('is the same for the same seed and differs for another', () => {
    expect(generateChart('small', 42)).toEqual(generateChart('small', 42));
    const a = generateChart('small', 1).accounts.map((x) => x.active);
    const b = generateChart('small', 2).accounts.map((x) => x.active);
    expect(a).not.toEqual(b);
  });

  it('has unique ids and active defaults whose accounts exist', () => {
    const chart = generateChart('small', 5);
    const ids = new Set(chart.accounts.map((a) => a.id));
    expect(ids.size).toBe(chart.accounts.length);
    for (const id of Object.values(chart.defaults))
      expect(chart.accounts.find((a) => a.id === id)?.active).toBe(true);
    for (const rate of chart.taxRates) expect(ids.has(rate.glAccountId)).toBe(true);
    expect(new Set(chart.vendors.map((v) => v.id)).size).toBe(chart.vendors.length);
    expect(new Set(chart.options.map((o) => `${o.fieldId}/${o.id}`)).size).toBe(chart.options.length);
  });

  it('large: scales the same shape to ~100k items', () => {
    const chart = generateChart('large', 1);
    const items = chart.accounts.length + chart.options.length + chart.vendors.length + chart.taxRates.length;
    expect(items).toBeGreaterThanOrEqual(95_000);
    expect(items).toBeLessThanOrEqual(105_000);
    expect(new Set(chart.vendors.map((v) => v.name)).size).toBe(chart.vendors.length);
  });
});
