import { CHART_STREAM_ITEMS_MAX } from '../chart.ts';
import type { ErpErrorInfo } from '../errors.ts';
import type {
  BillInput,
  BillPaymentInput,
  CardTransactionInput,
  CashbackInput,
  CodedLine,
  ReimbursementInput,
  TransferInput,
  VendorInput,
  WriteResult,
} from '../types.ts';
import { RuleBroken, show } from './rule.ts';
import type { ContractFixture } from './subject.ts';

let counter = 0;
/** Object ids unique to this run, so the kit can run on an ERP with history. */
export function newObjectId(kind: string): string {
  counter += 1;
  return `contract-${kind}-${Date.now().toString(36)}-${counter}`;
}

/** Builds valid objects of every kind from a fixture; `overrides` change any field. */
export function objects(f: ContractFixture) {
  const header = (kind: string) => ({
    objectId: newObjectId(kind),
    date: f.openDate,
    entityId: f.entityId,
    currency: f.currency,
    memo: `contract ${kind}`,
  });
  const line = (amountMinor: number, extra: Partial<CodedLine> = {}): CodedLine => ({
    amountMinor,
    glAccountId: f.expenseAccountId,
    dimensions: { ...f.dimensions },
    memo: 'contract line',
    ...extra,
  });
  return {
    line,
    card: (overrides: Partial<CardTransactionInput> = {}): CardTransactionInput => ({
      kind: 'card_transaction',
      ...header('card'),
      totalMinor: 4250,
      counterpart: { role: 'card_holder', id: 'holder-1', name: 'Ada Lovelace' },
      lines: [line(4250)],
      ...overrides,
    }),
    reimbursement: (overrides: Partial<ReimbursementInput> = {}): ReimbursementInput => ({
      kind: 'reimbursement',
      ...header('reimbursement'),
      totalMinor: 1899,
      counterpart: { role: 'employee', id: 'employee-1', name: 'Grace Hopper' },
      lines: [line(1899)],
      ...overrides,
    }),
    transfer: (overrides: Partial<TransferInput> = {}): TransferInput => ({
      kind: 'transfer',
      ...header('transfer'),
      totalMinor: 500_000,
      counterpart: null,
      ...overrides,
    }),
    cashback: (overrides: Partial<CashbackInput> = {}): CashbackInput => ({
      kind: 'cashback',
      ...header('cashback'),
      totalMinor: 1234,
      counterpart: null,
      ...overrides,
    }),
    bill: (overrides: Partial<BillInput> = {}): BillInput => ({
      kind: 'bill',
      ...header('bill'),
      totalMinor: 120_000,
      counterpart: { role: 'vendor', id: f.vendorId, name: 'vendor' },
      vendorId: f.vendorId,
      invoiceNumber: 'INV-1001',
      dueDate: f.openDate,
      lines: [line(120_000)],
      ...overrides,
    }),
    payment: (billObjectId: string, overrides: Partial<BillPaymentInput> = {}): BillPaymentInput => ({
      kind: 'bill_payment',
      ...header('payment'),
      totalMinor: 120_000,
      counterpart: null,
      billObjectId,
      ...overrides,
    }),
    vendor: (name = `Contract Vendor ${newObjectId('name')}`): VendorInput => ({
      kind: 'vendor',
      objectId: newObjectId('vendor'),
      name,
    }),
  };
}

/** The refusal a result carries; breaks the rule when the write succeeded instead. */
export function failureOf(result: WriteResult | undefined): ErpErrorInfo {
  if (!result) throw new RuleBroken('expected a refusal, got no result');
  if (result.ok) throw new RuleBroken(`expected a refusal, got ${show(result)}`);
  return result.error;
}

/** The reference a result carries; breaks the rule when the write was refused instead. */
export function referenceOf(result: WriteResult | undefined): string {
  if (!result) throw new RuleBroken('expected a success, got no result');
  if (!result.ok) throw new RuleBroken(`expected a success, got ${show(result.error)}`);
  return result.referenceId;
}

/**
 * Every item of a chart stream. A stream that does not end breaks the rule reading it (past
 * CHART_STREAM_ITEMS_MAX items) instead of hanging the check.
 */
export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) {
    if (out.length === CHART_STREAM_ITEMS_MAX)
      throw new RuleBroken(`a chart stream did not end after ${CHART_STREAM_ITEMS_MAX} items`);
    out.push(item);
  }
  return out;
}
