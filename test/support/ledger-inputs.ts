import type { BillInput, CardTransactionInput, CodedLine } from '../../src/erp/index.ts';

/** A coded line on gl-6040, no dimensions: what ledger tests write unless they say otherwise. */
export const codedLine = (amountMinor: number, extra: Partial<CodedLine> = {}): CodedLine => ({
  amountMinor,
  glAccountId: 'gl-6040',
  dimensions: {},
  memo: '',
  ...extra,
});

/** A USD 25.00 card transaction of one line, dated in an open period. */
export const cardTransaction = (
  objectId: string,
  extra: Partial<CardTransactionInput> = {},
): CardTransactionInput => ({
  kind: 'card_transaction',
  objectId,
  date: '2025-02-01',
  entityId: null,
  currency: { code: 'USD', exponent: 2 },
  totalMinor: 2_500,
  memo: '',
  counterpart: null,
  lines: [codedLine(2_500)],
  ...extra,
});

/** A USD 100.00 bill of one line from a seeded vendor, dated in an open period. */
export const ledgerBill = (objectId: string, extra: Partial<BillInput> = {}): BillInput => ({
  kind: 'bill',
  objectId,
  date: '2025-02-01',
  entityId: null,
  currency: { code: 'USD', exponent: 2 },
  totalMinor: 10_000,
  memo: '',
  counterpart: null,
  vendorId: 'ven-00002',
  invoiceNumber: `INV-${objectId}`,
  dueDate: '2025-03-01',
  lines: [codedLine(10_000, { glAccountId: 'gl-6080' })],
  ...extra,
});
