import type {
  BillInput,
  BillPaymentInput,
  CardTransactionInput,
  CashbackInput,
  CodedLine,
  PostingInput,
  ReimbursementInput,
  TransferInput,
} from '../types.ts';
import { checkCoding, checkHeader, checkVendor, type Outcome, resolveRole } from './checks.ts';
import type { EntityRow, PlannedEntry, PlannedLine, PostingContext } from './model.ts';
import { refuse } from './refusals.ts';
import { splitTax } from './tax.ts';

/**
 * Posting rules: which accounts each kind debits and credits. Amounts are signed minor units
 * (debit > 0, credit < 0) and every entry sums to zero (the database enforces it too).
 *
 *   card transaction   Dr each line's account (net) + tax accounts   Cr card liability
 *   reimbursement      Dr each line's account (net) + tax accounts   Cr employee payable
 *   bill               Dr each line's account (net) + tax accounts   Cr accounts payable (vendor)
 *   bill payment       Dr accounts payable (vendor)                  Cr bank
 *   transfer           Dr card liability                             Cr bank
 *   cashback           Dr card liability                             Cr cashback income
 *
 * A refund is the same entry with negative amounts, so every side flips. Counter accounts come
 * from the object when it names one, else from the ledger's posting defaults.
 */

type Lines = Outcome<PlannedLine[]>;

function line(accountId: string, amount: number, rest: Partial<PlannedLine> = {}): PlannedLine {
  return {
    accountId,
    amount,
    vendorId: null,
    taxCodeId: null,
    taxRateId: null,
    dimensions: {},
    memo: '',
    ...rest,
  };
}

/** Debit side of coded lines: the net amount on the line's account, tax on each rate's account. */
function debitCodedLines(input: PostingInput & { lines: CodedLine[] }, ctx: PostingContext): Lines {
  const out: PlannedLine[] = [];
  for (const [index, coded] of input.lines.entries()) {
    const where = input.lines.length > 1 ? `line ${index + 1}` : 'the line';
    const checked = checkCoding(coded, where, input.kind, ctx);
    if (!checked.ok) return checked;
    const common = {
      vendorId: coded.vendorId ?? null,
      taxCodeId: coded.taxCodeId ?? null,
      dimensions: coded.dimensions,
      memo: coded.memo,
    };
    const code = checked.value;
    const split = code ? splitTax(coded.amountMinor, code.rates) : { netMinor: coded.amountMinor, taxes: [] };
    if (!split) return { ok: false, error: refuse.invalidTaxCode(code!.name) };
    out.push(line(coded.glAccountId, split.netMinor, common));
    for (const tax of split.taxes)
      out.push(line(tax.accountId, tax.amountMinor, { ...common, taxRateId: tax.rateId }));
  }
  return { ok: true, value: out };
}

function entry(input: PostingInput, entity: EntityRow, lines: PlannedLine[]): PlannedEntry {
  return {
    kind: input.kind,
    objectId: input.objectId,
    entityId: entity.id,
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
  entity: EntityRow,
  ctx: PostingContext,
): Outcome<PlannedEntry> {
  const counter =
    input.kind === 'card_transaction'
      ? resolveRole('card_liability', input.liabilityAccountId, ctx)
      : resolveRole('employee_payable', input.payableAccountId, ctx);
  if (!counter.ok) return counter;
  const debits = debitCodedLines(input, ctx);
  if (!debits.ok) return debits;
  const credit = line(counter.value, -input.totalMinor, { memo: input.memo });
  return { ok: true, value: entry(input, entity, [...debits.value, credit]) };
}

function planBill(input: BillInput, entity: EntityRow, ctx: PostingContext): Outcome<PlannedEntry> {
  const vendorProblem = checkVendor(input.vendorId, 'the bill', ctx);
  if (vendorProblem) return { ok: false, error: vendorProblem };
  const payable = resolveRole('accounts_payable', input.payableAccountId, ctx);
  if (!payable.ok) return payable;
  const debits = debitCodedLines(input, ctx);
  if (!debits.ok) return debits;
  const credit = line(payable.value, -input.totalMinor, { vendorId: input.vendorId, memo: input.memo });
  const planned = entry(input, entity, [...debits.value, credit]);
  const { vendorId, invoiceNumber, dueDate, totalMinor } = input;
  return { ok: true, value: { ...planned, bill: { vendorId, invoiceNumber, dueDate, total: totalMinor } } };
}

function planBillPayment(
  input: BillPaymentInput,
  entity: EntityRow,
  ctx: PostingContext,
): Outcome<PlannedEntry> {
  const bill = ctx.bills.get(input.billObjectId);
  if (!bill) return { ok: false, error: refuse.unknownBill(input.billObjectId) };
  if (bill.currency !== input.currency.code) {
    return { ok: false, error: refuse.billCurrencyMismatch(bill, input.currency) };
  }
  if (input.totalMinor > bill.total - bill.paid) {
    return { ok: false, error: refuse.overpayment(bill, input.totalMinor, input.currency) };
  }
  const payable = resolveRole('accounts_payable', undefined, ctx);
  if (!payable.ok) return payable;
  const bank = resolveRole('bank', input.bankAccountId, ctx);
  if (!bank.ok) return bank;
  // Later payments of the same bill in this batch see this one.
  bill.paid += input.totalMinor;
  const lines = [
    line(payable.value, input.totalMinor, { vendorId: bill.vendorId, memo: input.memo }),
    line(bank.value, -input.totalMinor, { memo: input.memo }),
  ];
  const planned = entry(input, entity, lines);
  return {
    ok: true,
    value: { ...planned, payment: { billPostingId: bill.postingId, amount: input.totalMinor } },
  };
}

function planTransfer(input: TransferInput | CashbackInput, entity: EntityRow, ctx: PostingContext) {
  const liability = resolveRole('card_liability', input.liabilityAccountId, ctx);
  if (!liability.ok) return liability;
  const other =
    input.kind === 'transfer'
      ? resolveRole('bank', input.bankAccountId, ctx)
      : resolveRole('cashback_income', input.incomeAccountId, ctx);
  if (!other.ok) return other;
  const lines = [
    line(liability.value, input.totalMinor, { memo: input.memo }),
    line(other.value, -input.totalMinor, { memo: input.memo }),
  ];
  return { ok: true as const, value: entry(input, entity, lines) };
}

/** The journal entry for one object, or the refusal a bookkeeper reads. */
export function planPosting(input: PostingInput, ctx: PostingContext): Outcome<PlannedEntry> {
  const header = checkHeader(input, ctx);
  if (!header.ok) return header;
  const entity = header.value;
  switch (input.kind) {
    case 'card_transaction':
    case 'reimbursement':
      return planExpense(input, entity, ctx);
    case 'bill':
      return planBill(input, entity, ctx);
    case 'bill_payment':
      return planBillPayment(input, entity, ctx);
    case 'transfer':
    case 'cashback':
      return planTransfer(input, entity, ctx);
  }
}
