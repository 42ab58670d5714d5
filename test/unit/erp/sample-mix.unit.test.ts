import { describe, expect, it } from 'vitest';
import { ErpWrite } from '../../../src/erp/types.ts';
import { generateMix } from '../../support/erp-sample-mix.ts';

const chart = {
  gl_accounts: ['gl-6020', 'gl-6040'],
  fields: [{ id: 'department', options: ['d1', 'd2'], required_for: [] }],
  vendors: ['ven-1', 'ven-2'],
  tax_codes: ['tc-vat20'],
};

describe('generateMix', () => {
  it('produces valid writes of every kind, reproducibly', () => {
    const mix = generateMix(chart, { count: 2_000, seed: 3 });
    expect(mix).toHaveLength(2_000);
    for (const item of mix) expect(ErpWrite.safeParse(item).success).toBe(true);
    const kinds = new Set(mix.map((m) => m.kind));
    expect(kinds).toEqual(
      new Set([
        'card_transaction',
        'reimbursement',
        'transfer',
        'cashback',
        'bill',
        'bill_payment',
        'vendor',
      ]),
    );
    expect(generateMix(chart, { count: 2_000, seed: 3 })).toEqual(mix);
  });

  it('pays only bills generated earlier, on or after their date', () => {
    const mix = generateMix(chart, { count: 3_000, seed: 9 });
    const seen = new Map<string, string>();
    for (const item of mix) {
      if (item.kind === 'bill') seen.set(item.objectId, item.date);
      if (item.kind === 'bill_payment') {
        expect(seen.has(item.billObjectId)).toBe(true);
        expect(item.date >= seen.get(item.billObjectId)!).toBe(true);
      }
    }
  });
});
