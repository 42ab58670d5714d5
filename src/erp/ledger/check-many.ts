import { classifyThrown } from '../classify.ts';
import { phases, readBatch, replayRepeats } from '../core/batch.ts';
import { KIND_LABEL } from '../labels.ts';
import type { CheckResult, ErpWrite, WriteResult } from '../types.ts';
import { readBatchView } from './context.ts';
import type { BillRow } from './model.ts';
import type { PostManyDeps } from './post-many.ts';
import { ledgerChart } from './posting-chart.ts';
import { keyOf } from './postings.ts';
import { planOne } from './write-batch.ts';

/**
 * What postMany would answer now, writing nothing (ErpAdapter.checkMany): the same reads and
 * the same plans as a write (write-batch.ts), without the write statement. A bill accepted here
 * is seen as posted by the payments after it in the call, as postMany's phases would see it.
 */
export async function checkMany(deps: PostManyDeps, raw: readonly unknown[]): Promise<CheckResult[]> {
  const batch = readBatch(raw);
  const out = batch.out as (WriteResult | CheckResult)[];
  const acceptedBills = new Map<string, BillRow>();
  for (const phase of phases(batch.unique)) {
    for (let start = 0; start < phase.length; start += deps.chunkSize) {
      const chunk = phase.slice(start, start + deps.chunkSize);
      const inputs = chunk.map((i) => i.input);
      let view: Awaited<ReturnType<typeof readBatchView>>;
      try {
        view = await readBatchView(deps.sql, deps.tables, inputs, deps.batch.defaults);
      } catch (error) {
        // Never rejects, as postMany: an unreadable ledger fails the chunk's items, with a category.
        for (const { index, input } of chunk) {
          const info = classifyThrown(
            error,
            `${KIND_LABEL[input.kind]} ${input.objectId}`,
            input.kind,
            input.objectId,
          );
          out[index] = { ok: false, kind: input.kind, objectId: input.objectId, error: info };
        }
        continue;
      }
      const { existing, ctx } = view;
      for (const [objectId, bill] of acceptedBills)
        if (!ctx.bills.has(objectId)) ctx.bills.set(objectId, bill);
      const chart = ledgerChart(ctx);
      for (const { index, input } of chunk) {
        const accepted = (replayed: boolean): CheckResult => ({
          ok: true,
          kind: input.kind,
          objectId: input.objectId,
          replayed,
        });
        if (existing.has(keyOf(input))) {
          out[index] = accepted(true);
          continue;
        }
        const planned = planOne(input, chart);
        if ('refused' in planned) {
          out[index] = planned.refused;
          continue;
        }
        out[index] = accepted(false);
        const entry = planned.planned;
        if (input.kind === 'bill' && entry.kind === 'bill' && entry.bill)
          acceptedBills.set(input.objectId, billRow(input, entry.bill, entry.currency.code));
      }
    }
  }
  return replayRepeats(batch as { out: WriteResult[] } & typeof batch).map(asCheck);
}

function billRow(input: ErpWrite, bill: { vendorId: string; total: number }, currency: string): BillRow {
  return {
    postingId: `planned:${input.objectId}`,
    objectId: input.objectId,
    referenceId: `planned:${input.objectId}`,
    vendorId: bill.vendorId,
    currency,
    total: bill.total,
    paid: 0,
  };
}

/** A replayed repeat answers as its first occurrence; drop what a check never carries. */
function asCheck(result: WriteResult | CheckResult): CheckResult {
  if (!result.ok) return result;
  return { ok: true, kind: result.kind, objectId: result.objectId, replayed: result.replayed };
}
