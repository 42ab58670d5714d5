import type { FieldSelection, Transaction } from '../../src/platform/schemas/objects.ts';

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
