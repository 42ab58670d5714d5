import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  BillInput,
  BillPaymentInput,
  CardTransactionInput,
  ReimbursementInput,
} from '../../../../src/erp/index.ts';
import { okValues, parseItems } from '../../../../src/platform/parse.ts';
import { Bill, Reimbursement, Transaction } from '../../../../src/platform/schemas/objects.ts';
import { billSteps } from '../../../../src/sync/bill-decision.ts';
import { mapBill, mapBillPayment, mapReimbursement, mapTransaction } from '../../../../src/sync/map/index.ts';

/**
 * The client reads objects whose optional fields are left out (docs/platform.md F36), whose
 * nullable fields are null (F37), and paid bills whose payment `id` is null or missing (F38). The
 * pages are test/fixtures/platform's `*-absent-page.json` and `*-nullable-page.json`.
 */

/** Every item of a fixture page, each of which must parse with the client's reader. */
function readPage<T>(schema: z.ZodType<T>, name: string): T[] {
  const raw = JSON.parse(
    readFileSync(new URL(`../../../fixtures/platform/${name}`, import.meta.url), 'utf8'),
  );
  const results = parseItems(schema, raw.data, name);
  expect(results.filter((r) => !r.ok)).toEqual([]);
  return okValues(results);
}

describe('absent and null fields (docs/platform.md F36–F38)', () => {
  it('F36, F37: a transaction without spend_program_id, merchant_data, selection source or line memo, and a null trip, maps', () => {
    const [t] = readPage(Transaction, 'transactions-absent-page.json');
    const input = mapTransaction(t!);
    expect(input).toMatchObject({ currency: { code: 'USD' }, totalMinor: 4250 });
    expect(input.lines.map((l) => l.amountMinor)).toEqual([4250]);
    expect(CardTransactionInput.safeParse(input).success).toBe(true);
  });

  it('F37: a reimbursement whose employee_id, memo, merchant and trip_id are null maps', () => {
    const [r] = readPage(Reimbursement, 'reimbursements-nullable-page.json');
    expect(r!.memo ?? null).toBeNull();
    const input = mapReimbursement(r!);
    expect(input.totalMinor).toBeGreaterThan(0);
    expect(ReimbursementInput.safeParse(input).success).toBe(true);
  });

  it('F36, F37: an OPEN bill without memo, vendor_memo, posting_date or vendor remote fields, with null paid_at, deep_link_url and remote_id, maps', () => {
    const [open] = readPage(Bill, 'bills-absent-page.json');
    expect(open!.paid_at ?? null).toBeNull();
    expect(billSteps(open!)).toEqual(['BILL_SYNC']);
    const input = mapBill(open!);
    // The vendor comes from the bill's MERCHANT selection when vendor.remote_id is left out.
    expect(input).toMatchObject({ vendorId: '412', totalMinor: 248000 });
    expect(BillInput.safeParse(input).success).toBe(true);
  });

  it('F38: a paid bill whose payment id is null and one whose payment has no id both map to their payment', () => {
    const [, nullId, noId] = readPage(Bill, 'bills-absent-page.json');
    for (const paid of [nullId!, noId!]) {
      expect(billSteps(paid)).toEqual(['BILL_PAYMENT_SYNC']);
      const payment = mapBillPayment(paid);
      expect(payment).toMatchObject({ totalMinor: 131550, date: '2026-02-19', billObjectId: paid.id });
      expect(BillPaymentInput.safeParse(payment).success).toBe(true);
    }
  });
});
