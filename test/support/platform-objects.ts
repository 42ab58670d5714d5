import type { Bill, FieldSelection, Transaction } from '../../src/platform/index.ts';

/** Platform objects as the client reads them, for unit tests of the mapping. */

/** One coding: `type` on the selection and in its field's category_info, as transactions carry it. */
export const sel = (type: string, external: string, field = type): FieldSelection => ({
  id: `s-${external}`,
  external_id: external,
  name: external,
  type,
  category_info: { id: `f-${field}`, external_id: field, name: field, type },
});

/** A ready USD card transaction coded to GL account 6100; `over` replaces any field. */
export const transaction = (over: Partial<Transaction> = {}): Transaction => ({
  id: 'tx-1',
  amount: 12.34,
  currency_code: 'USD',
  entity_id: 'ent-1',
  merchant_name: 'Acme',
  user_transaction_time: '2026-03-04T10:00:00Z',
  memo: 'lunch',
  accounting_field_selections: [sel('GL_ACCOUNT', '6100')],
  line_items: [],
  sync_status: 'SYNC_READY',
  ...over,
});

/** A paid EUR bill INV-7 of vendor V-9 coded to GL account 6300, not synced yet; `over` replaces any field. */
export const bill = (over: Partial<Bill> = {}): Bill => ({
  id: 'bill-1',
  invoice_number: 'INV-7',
  entity_id: null,
  amount: { amount: 50000, currency_code: 'EUR' },
  status: 'PAID',
  sync_status: 'NOT_SYNCED',
  created_at: '2026-02-01T00:00:00Z',
  paid_at: '2026-02-10T00:00:00Z',
  accounting_field_selections: [sel('MERCHANT', 'V-9'), sel('GL_ACCOUNT', '6300')],
  line_items: [],
  ...over,
});
