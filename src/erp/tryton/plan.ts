import type {
  BillPaymentInput,
  CardTransactionInput,
  CashbackInput,
  CodedLine,
  ReimbursementInput,
  TransferInput,
} from '../types.ts';
import { checkHeader, type Outcome, resolveRole } from './checks.ts';
import { dateOf, decimalFromMinor } from './codec.ts';
import type { TrytonContext } from './context.ts';
import type { RecordKey } from './keys.ts';
import { needJournal, splitLines } from './plan-lines.ts';
import type { InvoiceRow, PeriodRow } from './rows.ts';

/**
 * Posting rules: the Tryton records each kind becomes, as create values. Amounts are signed
 * minor units (debit > 0) and every move balances. Same rules as the built-in ledger:
 *
 *   card transaction   Dr each line's account (net) + tax accounts   Cr card liability
 *   reimbursement      Dr each line's account (net) + tax accounts   Cr employee payable
 *   bill               supplier invoice (plan-bill.ts): net lines, manual taxes, payable
 *   bill payment       Dr the invoice's payable account (its party)  Cr bank
 *   transfer           Dr card liability                             Cr bank
 *   cashback           Dr card liability                             Cr cashback income
 *
 * Tax is split out of the tax-inclusive line amounts exactly as the ledger does (net =
 * round(gross / (1 + rates)), the net absorbs the rounding) and written as Tryton tax lines, so
 * the posted totals are the platform's to the cent.
 */

export type Values = Record<string, unknown>;

interface Leg {
  account: number;
  amountMinor: number;
  description: string;
  party?: number;
  analytic?: number[];
  taxes?: { type: 'base' | 'tax'; tax: number; amountMinor: number }[];
}

export const analyticOf = (coded: CodedLine) => Object.values(coded.dimensions).map(Number);

function moveLine(leg: Leg, exponent: number, date: string): Values {
  const abs = decimalFromMinor(Math.abs(leg.amountMinor), exponent);
  const zero = decimalFromMinor(0, exponent);
  const debit = leg.amountMinor > 0 ? abs : zero;
  const credit = leg.amountMinor < 0 ? abs : zero;
  const values: Values = { account: leg.account, debit, credit, description: leg.description };
  if (leg.party) values.party = leg.party;
  if (leg.analytic?.length) {
    const analytic = leg.analytic.map((account) => ({ account, debit, credit, date: dateOf(date) }));
    values.analytic_lines = [['create', analytic]];
  }
  if (leg.taxes?.length) {
    const taxes = leg.taxes.map((t) => ({
      type: t.type,
      tax: t.tax,
      amount: decimalFromMinor(t.amountMinor, exponent),
    }));
    values.tax_lines = [['create', taxes]];
  }
  return values;
}

function move(
  key: RecordKey,
  period: PeriodRow,
  date: string,
  legs: Leg[],
  ctx: TrytonContext,
  journal: number,
): Values {
  return {
    company: ctx.company.id,
    journal,
    period: period.id,
    date: dateOf(date),
    description: key.text,
    // Zero legs carry nothing (a fully reverse-charged tax part, a $0 split).
    lines: [
      ['create', legs.filter((l) => l.amountMinor !== 0).map((l) => moveLine(l, ctx.company.digits, date))],
    ],
  };
}

export function planExpense(
  input: CardTransactionInput | ReimbursementInput,
  key: RecordKey,
  ctx: TrytonContext,
): Outcome<Values> {
  const period = checkHeader(input, ctx);
  if (!period.ok) return period;
  const journal = needJournal(ctx, 'moves');
  if (!journal.ok) return journal;
  const counter =
    input.kind === 'card_transaction'
      ? resolveRole('card_liability', input.liabilityAccountId, ctx)
      : resolveRole('employee_payable', input.payableAccountId, ctx);
  if (!counter.ok) return counter;
  const lines = splitLines(input, ctx);
  if (!lines.ok) return lines;
  const legs: Leg[] = [];
  for (const l of lines.value) {
    const base = l.taxes.map((t) => ({ type: 'base' as const, tax: t.tax, amountMinor: l.netMinor }));
    legs.push({
      account: l.checked.account.id,
      amountMinor: l.netMinor,
      description: l.coded.memo || input.memo,
      analytic: analyticOf(l.coded),
      taxes: base,
    });
    for (const t of l.taxes) {
      legs.push({
        account: t.account,
        amountMinor: t.amountMinor,
        description: t.name,
        taxes: [{ type: 'tax', tax: t.tax, amountMinor: t.amountMinor }],
      });
    }
  }
  const who = input.counterpart ? ` (${input.counterpart.name})` : '';
  legs.push({
    account: counter.value.id,
    amountMinor: -input.totalMinor,
    description: `${input.memo}${who}`.trim(),
  });
  return { ok: true, value: move(key, period.value, input.date, legs, ctx, journal.value) };
}

export function planTransfer(
  input: TransferInput | CashbackInput,
  key: RecordKey,
  ctx: TrytonContext,
): Outcome<Values> {
  const period = checkHeader(input, ctx);
  if (!period.ok) return period;
  const journal = needJournal(ctx, 'moves');
  if (!journal.ok) return journal;
  const liability = resolveRole('card_liability', input.liabilityAccountId, ctx);
  if (!liability.ok) return liability;
  const other =
    input.kind === 'transfer'
      ? resolveRole('bank', input.bankAccountId, ctx)
      : resolveRole('cashback_income', input.incomeAccountId, ctx);
  if (!other.ok) return other;
  const legs: Leg[] = [
    { account: liability.value.id, amountMinor: input.totalMinor, description: input.memo },
    { account: other.value.id, amountMinor: -input.totalMinor, description: input.memo },
  ];
  return { ok: true, value: move(key, period.value, input.date, legs, ctx, journal.value) };
}

export function planPayment(
  input: BillPaymentInput,
  key: RecordKey,
  invoice: InvoiceRow,
  ctx: TrytonContext,
): Outcome<Values> {
  const period = checkHeader(input, ctx);
  if (!period.ok) return period;
  const journal = needJournal(ctx, 'moves');
  if (!journal.ok) return journal;
  const bank = resolveRole('bank', input.bankAccountId, ctx);
  if (!bank.ok) return bank;
  const legs: Leg[] = [
    {
      account: invoice.account,
      amountMinor: input.totalMinor,
      description: input.memo || `Payment of ${invoice.number}`,
      party: invoice.party,
    },
    {
      account: bank.value.id,
      amountMinor: -input.totalMinor,
      description: input.memo || `Payment of ${invoice.number}`,
    },
  ];
  return { ok: true, value: move(key, period.value, input.date, legs, ctx, journal.value) };
}
