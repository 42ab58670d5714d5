import type { CardTransactionInput, CodedLine } from '../../src/erp/types.ts';

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
