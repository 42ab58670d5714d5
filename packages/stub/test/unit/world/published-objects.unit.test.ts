import { describe, expect, it, vi } from 'vitest';
import { Bill, Reimbursement, Transaction, Transfer } from '../../../src/schemas/objects.ts';
import { SeedRequest, seedWorld } from '../../../src/seed.ts';
import { DEFAULT_CHART, MERCHANT_FACTS, MERCHANTS } from '../../../src/world/catalog.ts';
import { billVendorIndexOf, generateBill } from '../../../src/world/generate-bill.ts';
import { generateReimbursement, generateTransfer } from '../../../src/world/generate-others.ts';
import { generateTransaction } from '../../../src/world/generate-transaction.ts';
import { SelectionResolver } from '../../../src/world/selections.ts';
import { World } from '../../../src/world/world.ts';

/**
 * The generators of the published object shapes (docs/platform.md F23–F27): the added fields
 * cost no extra draws, so every existing world keeps its ids, amounts and codings.
 */
function world(seed: string | number, counts: Record<string, number> = {}) {
  const w = new World();
  seedWorld(
    w,
    SeedRequest.parse({
      seed,
      transactions: 100,
      reimbursements: 20,
      transfers: 5,
      cashbacks: 5,
      bills: 20,
      entities: 6,
      ...counts,
    }),
    DEFAULT_CHART,
  );
  return { world: w, resolver: new SelectionResolver(null), settings: null };
}

describe('stub object generators (docs/platform.md F23–F27)', () => {
  it('docs/platform.md F23: the added fields cost no draws: values drawn before the change are unchanged', () => {
    const ctx = world('golden');
    // These values are what the generators drew before the published fields were added.
    const t = generateTransaction(ctx, 41);
    expect([t.id, t.amount, t.currency_code, t.entity_amount.value, t.merchant_name, t.memo]).toEqual([
      'ddb6ab0c-0001-4000-8000-000000000029',
      1649.19,
      'USD',
      164919,
      'Alshaya Kuwait',
      'Office supplies',
    ]);
    expect(t.accounting_field_selections.map((s) => s.external_id)).toEqual(['6100', 'V-1002']);
    const r = generateReimbursement(ctx, 7);
    expect([r.amount, r.currency, r.user_full_name, r.memo]).toEqual([
      241.839,
      'KWD',
      'Yuki Berg',
      'Software subscription',
    ]);
    const b = generateBill(ctx, 9);
    expect([b.amount.amount, b.amount.currency_code, b.vendor_id, b.due_at]).toEqual([
      1997534,
      'EUR',
      'ddb6ab0c-0012-4000-8000-000000000000',
      '2024-02-11T01:30:00.000Z',
    ]);
    expect(b.line_items.map((l) => l.amount.amount)).toEqual([548542, 889697, 559295]);
    const tr = generateTransfer(ctx, 3);
    expect([tr.amount.amount, tr.amount.currency_code, tr.entity_id]).toEqual([
      11509155,
      'CAD',
      'ddb6ab0c-0011-4000-8000-000000000005',
    ]);
  });

  it("the generated objects satisfy the stub's own schemas exactly (no field missing, none extra)", () => {
    const ctx = world(9);
    for (let i = 0; i < 100; i++) Transaction.strict().parse(generateTransaction(ctx, i));
    for (let i = 0; i < 20; i++) {
      Reimbursement.strict().parse(generateReimbursement(ctx, i));
      Bill.strict().parse(generateBill(ctx, i));
    }
    for (let i = 0; i < 5; i++) Transfer.strict().parse(generateTransfer(ctx, i));
  });

  it('every merchant has its location, card-present and trip facts', () => {
    expect(MERCHANT_FACTS).toHaveLength(MERCHANTS.length);
  });

  it("the bill vendor_id filter's cheap vendor lookup agrees with the generated bill", () => {
    const ctx = world(4, { bills: 200 });
    for (let i = 0; i < 200; i++) {
      expect(ctx.world.vendors[billVendorIndexOf(ctx.world, i)]!.id).toBe(generateBill(ctx, i).vendor_id);
    }
  });

  it('generating an object reads only its own stored state (a refund names its original, unread)', () => {
    const ctx = world(1, { transactions: 2_000 });
    const store = ctx.world.stores.transaction;
    const reads = (['statusOf', 'statusName', 'syncedAtOf', 'flagsOf', 'peekExtras'] as const).map((method) =>
      vi.spyOn(store, method),
    );
    let refunds = 0;
    for (let i = 0; i < 2_000; i++) {
      for (const spy of reads) spy.mockClear();
      const t = generateTransaction(ctx, i);
      if (t.original_transaction_id !== null) refunds++;
      // So an object costs the same whatever the world holds, and a page only its own objects.
      const indexes = new Set(reads.flatMap((spy) => spy.mock.calls.map(([index]) => index)));
      expect(indexes, `transaction ${i}`).toEqual(new Set([i]));
    }
    expect(refunds).toBeGreaterThan(0);
  });
});
