import { describe, expect, it } from 'vitest';
import type { ErpWrite } from '../../../../src/erp/index.ts';
import type { Bill } from '../../../../src/platform/index.ts';
import { KIND_SPECS } from '../../../../src/sync/objects/kinds.ts';
import { planPage } from '../../../../src/sync/objects/plan-page.ts';

const bill = (id: string, over: Partial<Bill>): Bill => ({
  id,
  invoice_number: id.toUpperCase(),
  entity_id: null,
  amount: { amount: 10_000, currency_code: 'USD' },
  status: 'OPEN',
  sync_status: 'NOT_SYNCED',
  created_at: '2026-02-01T00:00:00Z',
  paid_at: null,
  accounting_field_selections: [],
  line_items: [],
  ...over,
});

describe('planPage counts every object it reads', () => {
  it('G23: bills the decision table leaves alone are counted as nothing to sync, not lost', () => {
    const plan = planPage(
      KIND_SPECS.bills,
      [
        bill('b-synced-open', { sync_status: 'BILL_SYNCED' }),
        bill('b-all-done', { sync_status: 'BILL_AND_PAYMENT_SYNCED', status: 'PAID' }),
        bill('b-new', {}),
      ].map((value) => ({ ok: true as const, value })),
    );
    expect(plan.nothingToSync).toBe(2);
    expect(plan.items.map((i) => `${i.objectId} ${i.syncType}`)).toEqual(['b-new BILL_SYNC']);
  });

  it('an object without a readable id is counted as unreadable; one with an id becomes a failure', () => {
    const plan = planPage(KIND_SPECS.bills, [
      { ok: false, id: null, error: 'bill did not parse: id: Required' },
      { ok: false, id: 'b-odd', error: 'bill b-odd did not parse: amount: Required' },
    ]);
    expect(plan.unreadable).toHaveLength(1);
    expect(plan.nothingToSync).toBe(0);
    expect(plan.items.map((i) => [i.objectId, 'failure' in i])).toEqual([['b-odd', true]]);
  });
});

describe('planPage checks every write against the ERP input schema', () => {
  it('a write that fails it becomes a failure naming the fields, never the values', () => {
    const spec = {
      ...KIND_SPECS.bills,
      steps: () => [
        {
          syncType: 'BILL_SYNC' as const,
          build: () =>
            ({ kind: 'vendor', objectId: 'b-bad', name: 'Acme', code: 'X'.repeat(65) }) as ErpWrite,
        },
      ],
    };
    const plan = planPage(spec, [{ ok: true, value: bill('b-bad', {}) }]);
    const [item] = plan.items;
    expect(item && 'failure' in item ? item.failure : null).toMatchObject({
      objectId: 'b-bad',
      category: 'needs_integrator',
      message: expect.stringMatching(/\bcode: too big/i),
    });
    expect(JSON.stringify(plan.items)).not.toContain('XXXX');
  });
});
