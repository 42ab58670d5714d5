import type {
  BillInput,
  BillPaymentInput,
  CardTransactionInput,
  CashbackInput,
  CodedLine,
  Counterpart,
  Currency,
  ObjectKind,
  PostingInput,
  ReimbursementInput,
  TransferInput,
} from '../types.ts';
import type { Books, PostingChart } from './chart-view.ts';
import { checkCoding, checkHeader, checkVendor, resolveRole } from './checks.ts';
import { fail, type Outcome, ok } from './outcome.ts';
import { refuse } from './refusals.ts';
import type { DefaultRole } from './roles.ts';
import { splitTax } from './tax.ts';

/**
 * The double-entry legs of each object kind, the same for every ERP (src/erp/README.md):
 *
 *   card transaction   Dr each line's account (net) + tax accounts   Cr card liability
 *   reimbursement      Dr each line's account (net) + tax accounts   Cr employee payable
 *   bill               Dr each line's account (net) + tax accounts   Cr accounts payable (vendor)
 *   bill payment       Dr accounts payable (vendor)                  Cr bank
 *   transfer           Dr card liability                             Cr bank
 *   cashback           Dr card liability                             Cr cashback income
 *
 * Amounts are signed minor units (debit > 0, credit < 0) and every entry sums to zero. A refund
 * is the same entry with negative amounts, so every side flips. Counter accounts come from the
 * object when it names one, else from the ERP's defaults. An adapter writes the planned entry in
 * its own form (journal rows, a Tryton move or supplier invoice).
 */

export interface PlannedLine {
  accountId: string;
  /** Signed minor units: debit > 0, credit < 0. Never 0. */
  amount: number;
  vendorId: string | null;
  taxCodeId: string | null;
  /** Set on a tax part: the rate it is the tax of. */
  taxRateId: string | null;
  /** Set on a net part: the rates whose base it is. */
  taxBaseOf: string[];
  /** Set on a counter leg: the role its account fills. */
  role: DefaultRole | null;
  dimensions: Record<string, string>;
  memo: string;
}

export interface PlannedEntry {
  kind: Exclude<ObjectKind, 'vendor'>;
  objectId: string;
  entityId: string;
  date: string;
  currency: Currency;
  memo: string;
  counterpart: Counterpart | null;
  lines: PlannedLine[];
  bill?: {
    vendorId: string;
    invoiceNumber: string | null;
    dueDate: string | null;
    total: number;
    payableAccountId: string;
  };
  /** A bill payment: the ERP's id of the bill it pays (OpenBill.id). */
  payment?: { billId: string; amount: number };
}

function line(accountId: string, amount: number, rest: Partial<PlannedLine> = {}): PlannedLine {
  return {
    accountId,
    amount,
    vendorId: null,
    taxCodeId: null,
    taxRateId: null,
    taxBaseOf: [],
    role: null,
    dimensions: {},
    memo: '',
    ...rest,
  };
}

/** A coded line split into its net part and one part per tax rate (tax.ts). */
interface SplitLine {
  coded: CodedLine;
  accountId: string;
  netMinor: number;
  taxes: { rateId: string; accountId: string; amountMinor: number }[];
}

/** Checks each coded line and splits its tax-inclusive amount. */
function splitCodedLines(
  input: { kind: PostingInput['kind']; lines: CodedLine[] },
  chart: PostingChart,
): Outcome<SplitLine[]> {
  const out: SplitLine[] = [];
  for (const [index, coded] of input.lines.entries()) {
    const where = input.lines.length > 1 ? `line ${index + 1}` : 'the line';
    const checked = checkCoding(coded, where, input.kind, chart);
    if (!checked.ok) return checked;
    const code = checked.value.taxCode;
    const split = splitTax(coded.amountMinor, code?.rates ?? []);
    if (!split) return fail(refuse.invalidTaxCode(chart.terms, code?.name ?? ''));
    out.push({ coded, accountId: checked.value.account.id, netMinor: split.netMinor, taxes: split.taxes });
  }
  return ok(out);
}

/** Debit side of coded lines: the net amount on the line's account, tax on each rate's account. */
function debitCodedLines(input: PostingInput & { lines: CodedLine[] }, chart: PostingChart) {
  const split = splitCodedLines(input, chart);
  if (!split.ok) return split;
  const out: PlannedLine[] = [];
  for (const { coded, accountId, netMinor, taxes } of split.value) {
    const common = {
      vendorId: coded.vendorId ?? null,
      taxCodeId: coded.taxCodeId ?? null,
      dimensions: coded.dimensions,
      memo: coded.memo,
    };
    out.push(line(accountId, netMinor, { ...common, taxBaseOf: taxes.map((t) => t.rateId) }));
    for (const tax of taxes)
      out.push(line(tax.accountId, tax.amountMinor, { ...common, taxRateId: tax.rateId }));
  }
  return ok(out);
}

function entry(input: PostingInput, books: Books, lines: PlannedLine[]): PlannedEntry {
  return {
    kind: input.kind,
    objectId: input.objectId,
    entityId: books.entityId,
    date: input.date,
    currency: input.currency,
    memo: input.memo,
    counterpart: input.counterpart,
    // Zero lines carry nothing (a fully reverse-charged tax part, a $0 split).
    lines: lines.filter((l) => l.amount !== 0),
  };
}

function planExpense(
  input: CardTransactionInput | ReimbursementInput,
  books: Books,
  chart: PostingChart,
): Outcome<PlannedEntry> {
  const role = input.kind === 'card_transaction' ? 'card_liability' : 'employee_payable';
  const override = input.kind === 'card_transaction' ? input.liabilityAccountId : input.payableAccountId;
  const counter = resolveRole(role, override, chart);
  if (!counter.ok) return counter;
  const debits = debitCodedLines(input, chart);
  if (!debits.ok) return debits;
  const credit = line(counter.value.id, -input.totalMinor, { role, memo: input.memo });
  return ok(entry(input, books, [...debits.value, credit]));
}

function planBill(input: BillInput, books: Books, chart: PostingChart): Outcome<PlannedEntry> {
  const vendor = checkVendor(input.vendorId, 'the bill', chart);
  if (!vendor.ok) return vendor;
  const payable = resolveRole('accounts_payable', input.payableAccountId, chart);
  if (!payable.ok) return payable;
  const debits = debitCodedLines(input, chart);
  if (!debits.ok) return debits;
  const credit = line(payable.value.id, -input.totalMinor, {
    role: 'accounts_payable',
    vendorId: input.vendorId,
    memo: input.memo,
  });
  const planned = entry(input, books, [...debits.value, credit]);
  const { vendorId, invoiceNumber, dueDate, totalMinor } = input;
  const payableAccountId = payable.value.id;
  return ok({ ...planned, bill: { vendorId, invoiceNumber, dueDate, total: totalMinor, payableAccountId } });
}

function planBillPayment(input: BillPaymentInput, books: Books, chart: PostingChart): Outcome<PlannedEntry> {
  const t = chart.terms;
  const bill = chart.bill(input.billObjectId);
  if (!bill) return fail(refuse.unknownBill(t, input.billObjectId));
  if (bill.currency !== input.currency.code) return fail(refuse.billCurrencyMismatch(bill, input.currency));
  if (input.totalMinor > bill.open)
    return fail(refuse.overpayment(t, bill, input.totalMinor, input.currency));
  let payableId = bill.payableAccountId;
  if (payableId === undefined) {
    const payable = resolveRole('accounts_payable', undefined, chart);
    if (!payable.ok) return payable;
    payableId = payable.value.id;
  }
  const bank = resolveRole('bank', input.bankAccountId, chart);
  if (!bank.ok) return bank;
  // Later payments of the same bill in this batch see this one.
  bill.open -= input.totalMinor;
  const lines = [
    line(payableId, input.totalMinor, {
      role: 'accounts_payable',
      vendorId: bill.vendorId,
      memo: input.memo,
    }),
    line(bank.value.id, -input.totalMinor, { role: 'bank', memo: input.memo }),
  ];
  return ok({ ...entry(input, books, lines), payment: { billId: bill.id, amount: input.totalMinor } });
}

function planTransfer(input: TransferInput | CashbackInput, books: Books, chart: PostingChart) {
  const liability = resolveRole('card_liability', input.liabilityAccountId, chart);
  if (!liability.ok) return liability;
  const role = input.kind === 'transfer' ? 'bank' : 'cashback_income';
  const override = input.kind === 'transfer' ? input.bankAccountId : input.incomeAccountId;
  const other = resolveRole(role, override, chart);
  if (!other.ok) return other;
  const lines = [
    line(liability.value.id, input.totalMinor, { role: 'card_liability', memo: input.memo }),
    line(other.value.id, -input.totalMinor, { role, memo: input.memo }),
  ];
  return ok(entry(input, books, lines));
}

/** The entry for one object, or the refusal a bookkeeper reads. */
export function planEntry(input: PostingInput, chart: PostingChart): Outcome<PlannedEntry> {
  const header = checkHeader(input, chart);
  if (!header.ok) return header;
  const books = header.value;
  switch (input.kind) {
    case 'card_transaction':
    case 'reimbursement':
      return planExpense(input, books, chart);
    case 'bill':
      return planBill(input, books, chart);
    case 'bill_payment':
      return planBillPayment(input, books, chart);
    case 'transfer':
    case 'cashback':
      return planTransfer(input, books, chart);
  }
}
