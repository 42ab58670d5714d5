import { z } from 'zod';
import type { TrytonModels } from '../../../src/erp/index.ts';
import { DecimalValue } from '../../../src/erp/index.ts';

/**
 * What Tryton itself holds of the sync's writes, read back through JSON-RPC: every record that
 * carries a platform reference (svc:<kind>:<id>), how many times each reference occurs, which
 * invoices and moves are not posted, and which moves do not balance.
 */

const Move = z.object({ id: z.number().int(), description: z.string().nullable(), state: z.string() });
const Invoice = z.object({ id: z.number().int(), description: z.string().nullable(), state: z.string() });
const Identifier = z.object({ id: z.number().int(), code: z.string(), party: z.number().int() });
const Line = z.object({
  id: z.number().int(),
  move: z.number().int(),
  debit: DecimalValue,
  credit: DecimalValue,
});

export interface BooksReport {
  /** Reference → Tryton records ("account.move,12", "account.invoice,3", party id). */
  records: Map<string, string[]>;
  duplicates: [string, string[]][];
  notPosted: string[];
  unbalanced: number[];
  moveCount: number;
  invoiceCount: number;
}

const cents = (text: string) => Math.round(Number(text) * 1000);

export async function readBooks(m: TrytonModels): Promise<BooksReport> {
  const [moves, invoices, identifiers] = await Promise.all([
    m.searchRead('account.move', [['description', 'like', 'svc:%']], ['description', 'state'], Move),
    m.searchRead('account.invoice', [['description', 'like', 'svc:%']], ['description', 'state'], Invoice),
    m.searchRead('party.identifier', [['code', 'like', 'svc:%']], ['code', 'party'], Identifier),
  ]);
  const records = new Map<string, string[]>();
  const add = (key: string, record: string) => records.set(key, [...(records.get(key) ?? []), record]);
  for (const move of moves) add(move.description!, `account.move,${move.id}`);
  for (const invoice of invoices) add(invoice.description!, `account.invoice,${invoice.id}`);
  for (const identifier of identifiers) add(identifier.code, String(identifier.party));
  const notPosted = [
    ...moves.filter((x) => x.state !== 'posted').map((x) => `account.move,${x.id}`),
    ...invoices.filter((x) => !['posted', 'paid'].includes(x.state)).map((x) => `account.invoice,${x.id}`),
  ];
  const lines = await m.searchRead(
    'account.move.line',
    [['move', 'in', moves.map((x) => x.id)]],
    ['move', 'debit', 'credit'],
    Line,
  );
  const sums = new Map<number, number>();
  for (const l of lines) sums.set(l.move, (sums.get(l.move) ?? 0) + cents(l.debit) - cents(l.credit));
  return {
    records,
    duplicates: [...records.entries()].filter(([, list]) => list.length > 1),
    notPosted,
    unbalanced: [...sums.entries()].filter(([, sum]) => sum !== 0).map(([id]) => id),
    moveCount: moves.length,
    invoiceCount: invoices.length,
  };
}
