import { splitTax } from '../ledger/tax.ts';
import type { CodedLine } from '../types.ts';
import { type CheckedLine, checkCoding, type Outcome } from './checks.ts';
import type { TrytonContext } from './context.ts';
import { refuse } from './refusals.ts';

/**
 * Coded lines checked and split into their net part and one part per Tryton tax, exactly as the
 * built-in ledger splits them (src/erp/ledger/tax.ts), for moves and supplier invoices alike.
 */

export interface SplitLine {
  coded: CodedLine;
  checked: CheckedLine;
  netMinor: number;
  taxes: { tax: number; account: number; amountMinor: number; name: string }[];
}

export function splitLines(
  input: { kind: 'card_transaction' | 'reimbursement' | 'bill'; lines: CodedLine[] },
  ctx: TrytonContext,
): Outcome<SplitLine[]> {
  const out: SplitLine[] = [];
  for (const [index, coded] of input.lines.entries()) {
    const where = input.lines.length > 1 ? `line ${index + 1}` : 'the line';
    const checked = checkCoding(coded, where, input.kind, ctx);
    if (!checked.ok) return checked;
    const rates = checked.value.rates.map((r) => ({
      id: String(r.id),
      rate: r.rate ?? '0',
      accountId: String(r.invoice_account),
    }));
    const split = splitTax(coded.amountMinor, rates);
    if (!split) return { ok: false, error: refuse.invalidTaxCode(coded.taxCodeId ?? '') };
    const taxes = split.taxes.map((t) => ({
      tax: Number(t.rateId),
      account: Number(t.accountId),
      amountMinor: t.amountMinor,
      name: checked.value.rates.find((r) => String(r.id) === t.rateId)?.name ?? 'Tax',
    }));
    out.push({ coded, checked: checked.value, netMinor: split.netMinor, taxes });
  }
  return { ok: true, value: out };
}

export function needJournal(ctx: TrytonContext, which: 'moves' | 'invoices'): Outcome<number> {
  const journal = which === 'moves' ? ctx.journalId : ctx.expenseJournalId;
  if (journal !== null) return { ok: true, value: journal };
  const missing =
    which === 'moves'
      ? `the journal with code ${ctx.journalCode} that moves are posted in`
      : 'a journal of type Expense for supplier invoices';
  return { ok: false, error: refuse.missingJournal(ctx.company.name, missing) };
}
