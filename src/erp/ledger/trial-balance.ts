import type { Sql } from 'postgres';
import type { GlClassification } from '../chart.ts';
import { formatAmount } from '../money.ts';
import { ledgerTables } from './tables.ts';

/**
 * The trial balance: per currency and account, total debits, total credits and the balance
 * (debits - credits), in minor units. In balanced books every currency's balances sum to zero.
 */

export interface TrialBalanceRow {
  currency: string;
  exponent: number;
  accountId: string;
  code: string;
  name: string;
  classification: GlClassification;
  debits: number;
  credits: number;
  balance: number;
}

export async function trialBalance(sql: Sql, schema: string): Promise<TrialBalanceRow[]> {
  const t = ledgerTables(sql, schema);
  const rows = await sql<
    (Omit<TrialBalanceRow, 'debits' | 'credits' | 'balance'> & Record<string, string>)[]
  >`
    select e.currency,
           coalesce((select min(n.currency_exponent) from ${t.entities} n where n.currency = e.currency), 2) as exponent,
           a.id as "accountId", a.code, a.name, a.classification,
           coalesce(sum(l.amount) filter (where l.amount > 0), 0)::text as debits,
           coalesce(-sum(l.amount) filter (where l.amount < 0), 0)::text as credits,
           sum(l.amount)::text as balance
      from ${t.journal_lines} l
      join ${t.journal_entries} e on e.id = l.entry_id
      join ${t.accounts} a on a.id = l.account_id
     group by e.currency, a.id
     order by e.currency, a.code, a.id`;
  return rows.map((r) => ({
    currency: r.currency,
    exponent: Number(r.exponent),
    accountId: r.accountId,
    code: r.code,
    name: r.name,
    classification: r.classification,
    debits: Number(r.debits),
    credits: Number(r.credits),
    balance: Number(r.balance),
  }));
}

/** Per currency: the sum of all balances (zero when the books balance). */
export function trialBalanceTotals(rows: readonly TrialBalanceRow[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.currency, (totals.get(row.currency) ?? 0) + row.balance);
  return totals;
}

function pad(cells: readonly string[], widths: readonly number[], rightAligned: readonly boolean[]): string {
  return cells
    .map((c, i) => (rightAligned[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
    .join('  ')
    .trimEnd();
}

function section(currency: string, rows: readonly TrialBalanceRow[]): string[] {
  const exponent = rows[0]?.exponent ?? 2;
  const sum = (pick: (r: TrialBalanceRow) => number) => rows.reduce((s, r) => s + pick(r), 0);
  const body = rows.map((r) => [
    r.code,
    r.name,
    r.classification,
    formatAmount(r.debits, exponent),
    formatAmount(r.credits, exponent),
    formatAmount(r.balance, exponent),
  ]);
  const total = [
    '',
    `Total ${currency}`,
    '',
    formatAmount(
      sum((r) => r.debits),
      exponent,
    ),
    formatAmount(
      sum((r) => r.credits),
      exponent,
    ),
    formatAmount(
      sum((r) => r.balance),
      exponent,
    ),
  ];
  const header = ['Code', 'Account', 'Class', 'Debits', 'Credits', 'Balance'];
  const all = [header, ...body, total];
  const widths = header.map((_, i) => Math.max(...all.map((cells) => cells[i]!.length)));
  const right = [false, false, false, true, true, true];
  const rule = '-'.repeat(widths.reduce((s, w) => s + w, 0) + 2 * (widths.length - 1));
  return [
    `Trial balance (${currency})`,
    pad(header, widths, right),
    rule,
    ...body.map((cells) => pad(cells, widths, right)),
    rule,
    pad(total, widths, right),
    sum((r) => r.balance) === 0 ? 'The books balance.' : 'THE BOOKS DO NOT BALANCE.',
  ];
}

/** The trial balance as a text table, one section per currency. */
export function formatTrialBalance(rows: readonly TrialBalanceRow[]): string {
  if (rows.length === 0) return 'Trial balance: no entries yet.';
  const currencies = [...new Set(rows.map((r) => r.currency))];
  return currencies
    .map((c) =>
      section(
        c,
        rows.filter((r) => r.currency === c),
      ).join('\n'),
    )
    .join('\n\n');
}
