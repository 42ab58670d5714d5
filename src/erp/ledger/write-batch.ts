import type { Sql } from 'postgres';
import type { Indexed } from '../core/batch.ts';
import type { PostingChart } from '../core/chart-view.ts';
import { planEntry } from '../core/plan.ts';
import type { DefaultRole } from '../core/roles.ts';
import type { ErpWrite, WriteResult } from '../types.ts';
import { readBatchView } from './context.ts';
import { writePlanned } from './insert-journal.ts';
import type { Planned } from './model.ts';
import { ledgerChart } from './posting-chart.ts';
import { keyOf, type PostingRow, readPostings } from './postings.ts';
import type { LedgerTables } from './tables.ts';

/**
 * One batch of writes: one read statement (context.ts: what is already posted, the part of the
 * chart the batch names, the bills its payments pay), planning in memory (refusals become
 * results), and one write statement (insert-journal.ts): two round trips whatever its size.
 */

export interface BatchOptions {
  defaults: Partial<Record<DefaultRole, string>>;
  deepLink: (kind: ErpWrite['kind'], referenceId: string) => string | undefined;
}

type Results = Map<number, WriteResult>;
interface Accepted extends Indexed<ErpWrite> {
  planned: Planned;
}

function success(input: ErpWrite, row: PostingRow, replayed: boolean, opts: BatchOptions): WriteResult {
  const deepLinkUrl = opts.deepLink(input.kind, row.referenceId);
  return {
    ok: true,
    kind: input.kind,
    objectId: input.objectId,
    referenceId: row.referenceId,
    ...(deepLinkUrl ? { deepLinkUrl } : {}),
    replayed,
  };
}

/** Plans one write against the batch's view of the books (ledgerChart); a refusal is a result. */
export function planOne(
  input: ErpWrite,
  chart: PostingChart,
): { planned: Planned } | { refused: WriteResult } {
  if (input.kind === 'vendor') {
    return {
      planned: { kind: 'vendor', objectId: input.objectId, name: input.name, code: input.code ?? '' },
    };
  }
  const planned = planEntry(input, chart);
  if (planned.ok) return { planned: planned.value };
  return { refused: { ok: false, kind: input.kind, objectId: input.objectId, error: planned.error } };
}

/** Reads what the batch needs, replays what is posted, plans the rest (refusals are results). */
async function plan(
  sql: Sql,
  t: LedgerTables,
  items: readonly Indexed<ErpWrite>[],
  opts: BatchOptions,
  results: Results,
): Promise<Accepted[]> {
  const { existing, ctx } = await readBatchView(
    sql,
    t,
    items.map((i) => i.input),
    opts.defaults,
  );
  const chart = ledgerChart(ctx);
  const accepted: Accepted[] = [];
  for (const item of items) {
    const row = existing.get(keyOf(item.input));
    if (row) {
      results.set(item.index, success(item.input, row, true, opts));
      continue;
    }
    const outcome = planOne(item.input, chart);
    if ('planned' in outcome) accepted.push({ ...item, planned: outcome.planned });
    else results.set(item.index, outcome.refused);
  }
  return accepted;
}

/**
 * Writes one batch; every item gets a result. Needs no transaction: all its writes are one
 * statement. Throws only when that statement fails.
 */
export async function writeBatch(
  sql: Sql,
  t: LedgerTables,
  items: readonly Indexed<ErpWrite>[],
  opts: BatchOptions,
): Promise<Results> {
  const results: Results = new Map();
  const accepted = await plan(sql, t, items, opts, results);
  const claimed = await writePlanned(
    sql,
    t,
    accepted.map((a) => a.planned),
  );
  const lost: Accepted[] = [];
  for (const item of accepted) {
    const row = claimed.get(keyOf(item.input));
    if (row) results.set(item.index, success(item.input, row, false, opts));
    else lost.push(item);
  }
  if (lost.length === 0) return results;
  // A concurrent call claimed these first (our claim waited for it, then did nothing): replay it.
  const winners = await readPostings(
    sql,
    t,
    lost.map((l) => l.input),
  );
  for (const item of lost) {
    const row = winners.get(keyOf(item.input));
    if (!row) throw new Error(`posting ${keyOf(item.input)} conflicted but cannot be read back`);
    results.set(item.index, success(item.input, row, true, opts));
  }
  return results;
}
