import type { ErpAdapter } from '../../src/erp/adapter.ts';
import type {
  BillInput,
  BillPaymentInput,
  CardTransactionInput,
  CashbackInput,
  CodedLine,
  Currency,
  ReimbursementInput,
  TransferInput,
  WriteResult,
} from '../../src/erp/types.ts';

/**
 * What an adapter's test harness tells the contract about its chart: ids that exist in the ERP
 * it set up, so the contract can build valid objects and provoke each refusal.
 */
export interface ContractFixture {
  /** Entity the objects belong to; null means the ERP's default entity. */
  entityId: string | null;
  /** The entity's book currency, and one its books are not kept in. */
  currency: Currency;
  foreignCurrency: Currency;
  /** A date in an open period and one in a closed period (YYYY-MM-DD). */
  openDate: string;
  closedDate: string;
  expenseAccountId: string;
  otherExpenseAccountId: string;
  inactiveAccount: { id: string; code: string };
  unknownAccountId: string;
  vendorId: string;
  inactiveVendor: { id: string; name: string };
  unknownVendorId: string;
  /** A tax code with a non-zero rate. */
  taxCodeId: string;
  /** Dimensions every line carries, so required fields are satisfied. */
  dimensions: Record<string, string>;
  /** A custom field required on bill lines (its id must be a key of `dimensions`). */
  requiredField: { id: string; name: string };
}

export interface ContractSubject {
  erp: ErpAdapter;
  fixture: ContractFixture;
  /** The same ERP, unreachable (e.g. a dead address): writes must fail as transient. */
  unreachableErp?: ErpAdapter;
  /** The public base URL the ERP was given; unset, bills carry no deep link (docs/platform.md F42). */
  deepLinkBase?: string;
}

let counter = 0;
/** Object ids unique to this run, so the contract can run on an ERP with history. */
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
  };
}

/** Narrows a result to a failure, failing the test with the result when it succeeded. */
export function failureOf(result: WriteResult) {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result.error;
}

export function referenceOf(result: WriteResult): string {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.referenceId;
}

export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}
