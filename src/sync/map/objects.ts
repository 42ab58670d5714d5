import type {
  BillInput,
  BillPaymentInput,
  CardTransactionInput,
  CashbackInput,
  CodedLine,
  Currency,
  ReimbursementInput,
  TransferInput,
} from '../../erp/index.ts';
import { formatMinor } from '../../erp/index.ts';
import { allocate, currencyExponent, currencyOfAmount, type Money, readMoney } from '../../money.ts';
import type {
  AmountField,
  Bill,
  Cashback,
  FieldSelection,
  LineItem,
  Reimbursement,
  Transaction,
  Transfer,
} from '../../platform/index.ts';
import { codingFrom, requireGlAccount } from './codings.ts';
import { freeText } from './free-text.ts';
import { MappingProblem } from './mapping-problem.ts';

/**
 * Platform objects (docs/platform.md F16, F22–F26) to ERP-neutral postings (src/erp/types.ts).
 * Pure: no I/O. Amounts arrive in any of the platform's three forms and are read by src/money.ts.
 * A coding or amount the bookkeeper must fix throws MappingProblem; the caller turns it into a
 * failure for that object alone.
 */

function currencyOf(code: string): Currency {
  return { code: code.toUpperCase(), exponent: currencyExponent(code) };
}

function isoDate(...candidates: (string | null | undefined)[]): string {
  const value = candidates.find((c) => typeof c === 'string' && c.length >= 10);
  if (!value)
    throw new MappingProblem(
      'MISSING_DATE',
      'The object has no date',
      'Check the date on the platform, then sync again',
    );
  return value.slice(0, 10);
}

/** Reads an amount in any form; an unreadable or missing total is the bookkeeper's to check. */
function moneyOf(
  raw: AmountField | null | undefined,
  siblingCurrency: string | null | undefined,
  what: string,
): Money {
  let money: Money | null;
  try {
    money = readMoney(raw, siblingCurrency);
  } catch (error) {
    throw new MappingProblem(
      'BAD_AMOUNT',
      `The amount of ${what} cannot be read: ${(error as Error).message}`,
      'Check the amount and currency on the platform, then sync again',
    );
  }
  if (!money)
    throw new MappingProblem(
      'MISSING_AMOUNT',
      `${capitalized(what)} has no amount`,
      'Check the amount on the platform, then sync again',
    );
  return money;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A total of zero posts an entry with nothing in it, and the platform would show the object as
 * synced: the bookkeeper checks the amount instead (a missing or voided amount, usually).
 */
function nonZero(money: Money, what: string): Money {
  if (money.minor !== 0) return money;
  throw new MappingProblem(
    'ZERO_AMOUNT',
    `${capitalized(what)} has an amount of zero (${formatMinor(0, currencyOf(money.currency))}), so there is nothing to post to the ERP`,
    'Check the amount on the spend platform and correct it, then sync again',
  );
}

/**
 * A line's amount in the object's currency, or null when the line has none that can be counted
 * in it: `amount` first, then `converted_amount` (F23: the same line in the entity's currency).
 */
function lineMinor(item: LineItem, currency: string): number | null {
  for (const raw of [item.amount, item.converted_amount]) {
    try {
      const money = readMoney(raw, currency);
      if (money && money.currency === currency) return money.minor;
    } catch {
      // An unreadable line amount is spread from the total below.
    }
  }
  return null;
}

/**
 * Lines in minor units summing exactly to the total. Lines whose amounts are all readable keep
 * them: a rounding drift of at most a unit per line lands on the last line, and a larger
 * disagreement is the bookkeeper's to resolve (which of the two is right cannot be guessed, and
 * pro-rating would post amounts nobody entered). When some line amount cannot be read at all,
 * the total is spread over the lines in proportion to what can be read, evenly when nothing can.
 */
function linesFrom(
  total: number,
  currency: string,
  objectSelections: readonly FieldSelection[],
  items: readonly LineItem[],
  memo: string,
  what: string,
): CodedLine[] {
  if (items.length === 0) {
    return [{ ...requireGlAccount(codingFrom(objectSelections, [], memo), what), amountMinor: total }];
  }
  const read = items.map((item) => lineMinor(item, currency));
  let amounts: number[];
  if (read.every((a): a is number => a !== null)) {
    amounts = [...read];
    const linesSum = amounts.reduce((a, b) => a + b, 0);
    const drift = total - linesSum;
    if (Math.abs(drift) > items.length) {
      const money = (minor: number) => formatMinor(minor, currencyOf(currency));
      throw new MappingProblem(
        'LINES_DISAGREE_WITH_TOTAL',
        `The line items of ${what} add up to ${money(linesSum)}, but its total is ${money(total)}`,
        'Correct the line item amounts or the total in the spend platform so that they agree, then sync again',
      );
    }
    amounts[amounts.length - 1] = (amounts[amounts.length - 1] ?? 0) + drift;
  } else {
    const weights = read.map((a) => Math.abs(a ?? 0));
    amounts = allocate(total, weights.some((w) => w > 0) ? weights : items.map(() => 1));
  }
  return items.map((item, i) => ({
    ...requireGlAccount(
      codingFrom(objectSelections, item.accounting_field_selections, freeText(item.memo ?? memo)),
      `Line ${i + 1} of ${what}`,
    ),
    amountMinor: amounts[i] ?? 0,
  }));
}

export function mapTransaction(t: Transaction): CardTransactionInput {
  const what = 'this card transaction';
  // F16: a major-unit number beside currency_code; F22: the entity amount names its own currency.
  const total = nonZero(
    moneyOf(
      t.amount ?? t.entity_amount,
      t.currency_code ?? currencyOfAmount(t.amount) ?? currencyOfAmount(t.entity_amount),
      what,
    ),
    what,
  );
  const currency = currencyOf(total.currency);
  const holder = t.card_holder;
  return {
    kind: 'card_transaction',
    objectId: t.id,
    date: isoDate(t.accounting_date, t.settlement_date, t.user_transaction_time),
    entityId: t.entity_id ?? null,
    currency,
    totalMinor: total.minor,
    memo: freeText(t.memo ?? t.merchant_name ?? ''),
    counterpart: holder?.user_id
      ? {
          role: 'card_holder',
          id: holder.user_id,
          name: freeText([holder.first_name, holder.last_name].filter(Boolean).join(' ')),
        }
      : null,
    lines: linesFrom(
      total.minor,
      currency.code,
      t.accounting_field_selections,
      t.line_items,
      freeText(t.memo ?? ''),
      what,
    ),
  };
}

export function mapReimbursement(r: Reimbursement): ReimbursementInput {
  const what = 'this reimbursement';
  // F24: the live service names the currency `currency`; the guide `currency_code`.
  const total = nonZero(moneyOf(r.amount, r.currency ?? r.currency_code, what), what);
  const currency = currencyOf(total.currency);
  return {
    kind: 'reimbursement',
    objectId: r.id,
    date: isoDate(r.transaction_date, r.approved_at, r.created_at),
    entityId: r.entity_id ?? null,
    currency,
    totalMinor: total.minor,
    memo: freeText(r.memo ?? r.merchant_name ?? ''),
    counterpart: r.user_id
      ? { role: 'employee', id: r.user_id, name: freeText(r.user_full_name ?? '') }
      : null,
    lines: linesFrom(
      total.minor,
      currency.code,
      r.accounting_field_selections,
      r.line_items,
      freeText(r.memo ?? ''),
      what,
    ),
  };
}

/** F25: transfers and cashbacks carry a CurrencyAmount and no top-level currency. */
function simpleTotal(o: Transfer | Cashback, what: string): { currency: Currency; totalMinor: number } {
  const total = nonZero(moneyOf(o.amount, o.currency_code, what), what);
  return { currency: currencyOf(total.currency), totalMinor: total.minor };
}

export function mapTransfer(t: Transfer): TransferInput {
  return {
    kind: 'transfer',
    objectId: t.id,
    date: isoDate(t.created_at),
    entityId: t.entity_id ?? null,
    ...simpleTotal(t, 'this transfer'),
    memo: freeText(t.memo ?? 'Card payment'),
    counterpart: null,
  };
}

export function mapCashback(c: Cashback): CashbackInput {
  return {
    kind: 'cashback',
    objectId: c.id,
    date: isoDate(c.created_at),
    entityId: c.entity_id ?? null,
    ...simpleTotal(c, 'this cashback'),
    memo: freeText(c.memo ?? 'Cashback'),
    counterpart: null,
  };
}

/** F26: the bill's ERP vendor, from its vendor selection or the vendor's remote id. */
function billVendorId(b: Bill): string {
  const selected =
    codingFrom(b.accounting_field_selections).vendorId ??
    b.vendor?.remote_id ??
    b.vendor?.accounting_vendor_remote_id;
  if (!selected) {
    throw new MappingProblem(
      'MISSING_VENDOR',
      `Bill ${freeText(b.invoice_number) ?? b.id} has no accounting vendor`,
      'Link the vendor to an accounting vendor in the spend platform, then sync again',
    );
  }
  return selected;
}

function billCounterpart(b: Bill): BillInput['counterpart'] {
  const id = b.vendor?.id ?? b.vendor?.remote_id;
  return id ? { role: 'vendor', id, name: freeText(b.vendor?.name ?? '') } : null;
}

function billWhat(b: Bill): string {
  return `bill ${freeText(b.invoice_number) ?? b.id}`;
}

export function mapBill(b: Bill): BillInput {
  const what = billWhat(b);
  const total = nonZero(moneyOf(b.amount, null, what), what);
  const currency = currencyOf(total.currency);
  return {
    kind: 'bill',
    objectId: b.id,
    date: isoDate(b.issued_at, b.created_at),
    entityId: b.entity_id ?? null,
    currency,
    totalMinor: total.minor,
    memo: freeText(b.memo ?? b.vendor_memo ?? ''),
    counterpart: billCounterpart(b),
    vendorId: billVendorId(b),
    invoiceNumber: freeText(b.invoice_number) ?? null,
    dueDate: b.due_at ? b.due_at.slice(0, 10) : null,
    lines: linesFrom(
      total.minor,
      currency.code,
      b.accounting_field_selections,
      b.line_items,
      freeText(b.memo ?? ''),
      what,
    ),
  };
}

export function mapBillPayment(b: Bill): BillPaymentInput {
  const what = `the payment of ${billWhat(b)}`;
  const billTotal = moneyOf(b.amount, null, billWhat(b));
  const paid = nonZero(
    b.payment?.amount ? moneyOf(b.payment.amount, billTotal.currency, what) : billTotal,
    what,
  );
  return {
    kind: 'bill_payment',
    objectId: b.id,
    // The payment's own date first: `paid_at` is when the bill was marked paid, which can be later.
    date: isoDate(b.payment?.payment_date, b.payment?.effective_date, b.paid_at, b.created_at),
    entityId: b.entity_id ?? null,
    currency: currencyOf(paid.currency),
    totalMinor: paid.minor,
    memo: `Payment of bill ${freeText(b.invoice_number) ?? b.id}`,
    counterpart: billCounterpart(b),
    billObjectId: b.id,
  };
}
