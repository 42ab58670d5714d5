import type {
  BillInput,
  BillPaymentInput,
  CardTransactionInput,
  CashbackInput,
  CodedLine,
  Currency,
  ReimbursementInput,
  TransferInput,
} from '../../erp/types.ts';
import type {
  Bill,
  Cashback,
  LineItem,
  Reimbursement,
  Transaction,
  Transfer,
} from '../../platform/schemas/objects.ts';
import { codingFrom, requireGlAccount } from './codings.ts';
import { MappingProblem } from './mapping-problem.ts';
import { allocate, currencyExponent, toMinorUnits } from './money.ts';

/**
 * Platform objects (PLATFORM-FACTS F16) to ERP-neutral postings (src/erp/types.ts). Pure: no I/O.
 * A coding the bookkeeper must fix throws MappingProblem; the caller turns it into a failure.
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

/** Lines in minor units summing exactly to the total (rounding lands on the last line). */
function linesFrom(
  total: number,
  exponent: number,
  objectSelections: Parameters<typeof codingFrom>[0],
  items: readonly LineItem[],
  memo: string,
  what: string,
): CodedLine[] {
  if (items.length === 0) {
    return [{ ...requireGlAccount(codingFrom(objectSelections, [], memo), what), amountMinor: total }];
  }
  const amounts = items.map((item) => toMinorUnits(item.amount, exponent));
  const drift = total - amounts.reduce((a, b) => a + b, 0);
  if (drift !== 0) {
    if (Math.abs(drift) > items.length) {
      const spread = allocate(total, amounts.length ? amounts : [1]);
      amounts.splice(0, amounts.length, ...spread);
    } else amounts[amounts.length - 1] = (amounts[amounts.length - 1] ?? 0) + drift;
  }
  return items.map((item, i) => ({
    ...requireGlAccount(
      codingFrom(objectSelections, item.accounting_field_selections, item.memo ?? memo),
      `Line ${i + 1} of ${what}`,
    ),
    amountMinor: amounts[i] ?? 0,
  }));
}

export function mapTransaction(t: Transaction): CardTransactionInput {
  const currency = currencyOf(t.currency_code);
  const totalMinor = toMinorUnits(t.amount, currency.exponent);
  const holder = t.card_holder;
  return {
    kind: 'card_transaction',
    objectId: t.id,
    date: isoDate(t.accounting_date, t.settlement_date, t.user_transaction_time),
    entityId: t.entity_id ?? null,
    currency,
    totalMinor,
    memo: t.memo ?? t.merchant_name ?? '',
    counterpart: holder
      ? { role: 'card_holder', id: holder.user_id, name: `${holder.first_name} ${holder.last_name}` }
      : null,
    lines: linesFrom(
      totalMinor,
      currency.exponent,
      t.accounting_field_selections,
      t.line_items,
      t.memo ?? '',
      'this card transaction',
    ),
  };
}

export function mapReimbursement(r: Reimbursement): ReimbursementInput {
  const currency = currencyOf(r.currency_code);
  const totalMinor = toMinorUnits(r.amount, currency.exponent);
  return {
    kind: 'reimbursement',
    objectId: r.id,
    date: isoDate(r.transaction_date, r.approved_at, r.created_at),
    entityId: r.entity_id ?? null,
    currency,
    totalMinor,
    memo: r.memo ?? r.merchant_name ?? '',
    counterpart: r.user_id ? { role: 'employee', id: r.user_id, name: r.user_full_name ?? '' } : null,
    lines: linesFrom(
      totalMinor,
      currency.exponent,
      r.accounting_field_selections,
      r.line_items,
      r.memo ?? '',
      'this reimbursement',
    ),
  };
}

export function mapTransfer(t: Transfer): TransferInput {
  const currency = currencyOf(t.currency_code);
  return {
    kind: 'transfer',
    objectId: t.id,
    date: isoDate(t.created_at),
    entityId: t.entity_id ?? null,
    currency,
    totalMinor: toMinorUnits(t.amount, currency.exponent),
    memo: t.memo ?? 'Card payment',
    counterpart: null,
  };
}

export function mapCashback(c: Cashback): CashbackInput {
  const currency = currencyOf(c.currency_code);
  return {
    kind: 'cashback',
    objectId: c.id,
    date: isoDate(c.created_at),
    entityId: c.entity_id ?? null,
    currency,
    totalMinor: toMinorUnits(c.amount, currency.exponent),
    memo: c.memo ?? 'Cashback',
    counterpart: null,
  };
}

function billVendorId(b: Bill): string {
  const selected =
    codingFrom(b.accounting_field_selections).vendorId ?? b.vendor?.accounting_vendor_remote_id;
  if (!selected) {
    throw new MappingProblem(
      'MISSING_VENDOR',
      `Bill ${b.invoice_number ?? b.id} has no accounting vendor`,
      'Link the vendor to an accounting vendor in the spend platform, then sync again',
    );
  }
  return selected;
}

export function mapBill(b: Bill): BillInput {
  const currency = currencyOf(b.amount.currency_code);
  const what = `bill ${b.invoice_number ?? b.id}`;
  const lines: CodedLine[] =
    b.line_items.length === 0
      ? [
          {
            ...requireGlAccount(codingFrom(b.accounting_field_selections, [], b.memo ?? ''), what),
            amountMinor: b.amount.amount,
          },
        ]
      : b.line_items.map((item, i) => ({
          ...requireGlAccount(
            codingFrom(b.accounting_field_selections, item.accounting_field_selections, item.memo ?? ''),
            `Line ${i + 1} of ${what}`,
          ),
          amountMinor: item.amount.amount,
        }));
  return {
    kind: 'bill',
    objectId: b.id,
    date: isoDate(b.issued_at, b.created_at),
    entityId: b.entity_id ?? null,
    currency,
    totalMinor: b.amount.amount,
    memo: b.memo ?? b.vendor_memo ?? '',
    counterpart: b.vendor ? { role: 'vendor', id: b.vendor.id, name: b.vendor.name } : null,
    vendorId: billVendorId(b),
    invoiceNumber: b.invoice_number ?? null,
    dueDate: b.due_at ? b.due_at.slice(0, 10) : null,
    lines,
  };
}

export function mapBillPayment(b: Bill): BillPaymentInput {
  const currency = currencyOf(b.amount.currency_code);
  return {
    kind: 'bill_payment',
    objectId: b.id,
    date: isoDate(b.paid_at, b.payment?.payment_date, b.created_at),
    entityId: b.entity_id ?? null,
    currency,
    totalMinor: b.payment?.amount?.amount ?? b.amount.amount,
    memo: `Payment of bill ${b.invoice_number ?? b.id}`,
    counterpart: b.vendor ? { role: 'vendor', id: b.vendor.id, name: b.vendor.name } : null,
    billObjectId: b.id,
  };
}
