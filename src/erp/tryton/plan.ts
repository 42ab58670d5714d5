import { fail, type Outcome, ok } from '../core/outcome.ts';
import { type PlannedEntry, type PlannedLine, planEntry } from '../core/plan.ts';
import type {
  BillPaymentInput,
  CardTransactionInput,
  CashbackInput,
  ReimbursementInput,
  TransferInput,
} from '../types.ts';
import { dateOf, decimalFromMinor } from './codec.ts';
import type { TrytonContext } from './context.ts';
import type { RecordKey } from './keys.ts';
import { trytonChart } from './posting-chart.ts';
import { refuseSetting } from './setting-refusals.ts';

/**
 * The posting core's planned entry (core/plan.ts) as a Tryton move's create values: one move
 * line per leg, debit or credit by its sign, with the analytic lines of its axes and tax lines
 * (the net part as the base of its taxes, each tax part as its tax), so the posted totals are
 * the platform's to the cent. Bills become supplier invoices instead (plan-bill.ts).
 */

export type Values = Record<string, unknown>;

export type MoveInput =
  | CardTransactionInput
  | ReimbursementInput
  | TransferInput
  | CashbackInput
  | BillPaymentInput;

export function needJournal(ctx: TrytonContext, which: 'moves' | 'invoices'): Outcome<number> {
  const journal = which === 'moves' ? ctx.journalId : ctx.expenseJournalId;
  if (journal !== null) return ok(journal);
  const missing =
    which === 'moves'
      ? `the journal with code ${ctx.journalCode} that moves are posted in`
      : 'a journal of type Expense for supplier invoices';
  return fail(refuseSetting.missingJournal(ctx.company.name, missing));
}

export const taxName = (ctx: TrytonContext, rateId: string) => ctx.taxes.get(Number(rateId))?.name ?? 'Tax';

/** What Tryton shows for a leg: the line's memo, the tax's name, the counterpart or the invoice paid. */
function description(line: PlannedLine, input: MoveInput, ctx: TrytonContext): string {
  if (line.taxRateId !== null) return taxName(ctx, line.taxRateId);
  if (line.role === null) return line.memo || input.memo;
  if (input.kind === 'bill_payment') {
    const invoice = ctx.bills.get(input.billObjectId);
    return input.memo || `Payment of ${invoice?.number ?? invoice?.id}`;
  }
  if (input.kind === 'card_transaction' || input.kind === 'reimbursement') {
    const who = input.counterpart ? ` (${input.counterpart.name})` : '';
    return `${input.memo}${who}`.trim();
  }
  return input.memo;
}

function moveLine(line: PlannedLine, input: MoveInput, ctx: TrytonContext): Values {
  const exponent = ctx.company.digits;
  const abs = decimalFromMinor(Math.abs(line.amount), exponent);
  const zero = decimalFromMinor(0, exponent);
  const debit = line.amount > 0 ? abs : zero;
  const credit = line.amount < 0 ? abs : zero;
  const values: Values = {
    account: Number(line.accountId),
    debit,
    credit,
    description: description(line, input, ctx),
  };
  // A payment's payable leg names the invoice's party, as Tryton's Pay wizard does.
  if (input.kind === 'bill_payment' && line.role === 'accounts_payable') values.party = Number(line.vendorId);
  const net = line.role === null && line.taxRateId === null;
  const analytic = net ? Object.values(line.dimensions).map(Number) : [];
  if (analytic.length) {
    const date = dateOf(input.date);
    values.analytic_lines = [['create', analytic.map((account) => ({ account, debit, credit, date }))]];
  }
  const taxes =
    line.taxRateId !== null
      ? [{ type: 'tax', tax: Number(line.taxRateId), amount: decimalFromMinor(line.amount, exponent) }]
      : line.taxBaseOf.map((id) => ({
          type: 'base',
          tax: Number(id),
          amount: decimalFromMinor(line.amount, exponent),
        }));
  if (taxes.length) values.tax_lines = [['create', taxes]];
  return values;
}

function move(input: MoveInput, entry: PlannedEntry, key: RecordKey, ctx: TrytonContext, journal: number) {
  // The core checked that the date falls in an open period.
  const period = ctx.periods.find((p) => p.start_date <= input.date && input.date <= p.end_date)!;
  return {
    company: ctx.company.id,
    journal,
    period: period.id,
    date: dateOf(input.date),
    description: key.text,
    lines: [['create', entry.lines.map((l) => moveLine(l, input, ctx))]],
  };
}

/** A card transaction, reimbursement, transfer, cashback or bill payment as a Tryton move. */
export function planMove(input: MoveInput, key: RecordKey, ctx: TrytonContext): Outcome<Values> {
  const journal = needJournal(ctx, 'moves');
  if (!journal.ok) return journal;
  const planned = planEntry(input, trytonChart(ctx));
  if (!planned.ok) return planned;
  return ok(move(input, planned.value, key, ctx, journal.value));
}
