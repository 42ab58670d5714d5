import type { Indexed } from '../core/batch.ts';
import type { ErpWrite, WriteResult } from '../types.ts';
import type { TrytonContext } from './context.ts';
import { failureOf } from './faults.ts';
import { recordKey } from './keys.ts';
import { findExisting } from './lookup.ts';
import { planMove, type Values } from './plan.ts';
import { planBill } from './plan-bill.ts';
import { TrytonFault } from './rpc.ts';
import { failure, type Model, postDrafts, success, type WriteDeps, writeOne } from './write.ts';

/**
 * New moves and supplier invoices into Tryton a batch at a time: one `create` with the batch's
 * records, then one `post` with their ids. Tryton spends most of a single write's time on the
 * call itself (its transaction, access checks, the journal-period), so fifty records in one call
 * cost it a third of the CPU per record that fifty calls do, and a whole page of the platform's
 * in one call less again (docs/tryton.md).
 *
 * Tryton runs each call in one transaction, so a record it refuses rolls back the whole call.
 * A refused create wrote nothing, so the batch is split in halves and each half written as a
 * batch again, and a refused part of SPLIT_MAX_ALONE or fewer records one record at a time: one
 * bad record among a hundred costs 24 to 26 calls, not the two hundred of a hundred single
 * writes, and a batch Tryton refuses whole 131 creates (199 if halved down to single records,
 * 101 if written singly at once). A refused post leaves the batch's drafts: its items are written
 * alone (writeOne) after a look-up of what Tryton holds for them, which finishes or discards each
 * draft. Either way a refused object fails alone, with the message a lone write gets, and never
 * its neighbours. A call without an answer (a timeout, a dropped connection) may still commit:
 * its items fail as transient and the next sync's look-up finds whatever it wrote (lookup.ts),
 * never posting twice. So does the sync after a run killed during a call, which waits for the
 * call to land first (TrytonErp.writeSettleMs).
 */

/**
 * Records per create call: a page of the platform's (100, docs/platform.md F4) is one call. Fifty
 * measured 3× cheaper per record than one; a hundred took Tryton 5 % less CPU per move than fifty,
 * whose pages of 50 to 60 new moves paid a second create and post for their last few (docs/tryton.md).
 */
export const TRYTON_BATCH_SIZE = 100;

/** A refused part of at most this many records is written a record at a time, not halved again. */
const SPLIT_MAX_ALONE = 8;

/** The parts a refused batch is written in next: halves, or its records one by one once small. */
function partsOfRefused(batch: readonly Planned[]): (readonly Planned[])[] {
  if (batch.length <= SPLIT_MAX_ALONE) return batch.map((p) => [p]);
  const half = Math.floor(batch.length / 2);
  return [batch.slice(0, half), batch.slice(half)];
}

export interface Planned {
  item: Indexed;
  values: Values;
}

/** The kinds written in batches: a move or a supplier invoice with nothing to do after posting. */
export function batchModel(input: ErpWrite): Model | null {
  switch (input.kind) {
    case 'card_transaction':
    case 'reimbursement':
    case 'transfer':
    case 'cashback':
      return 'account.move';
    case 'bill':
      return 'account.invoice';
    default:
      return null;
  }
}

/** The create values of a batchable item, or its refusal (the posting core's checks). */
export function planBatchable(
  deps: WriteDeps,
  input: ErpWrite,
  ctx: TrytonContext,
): { ok: true; values: Values } | { ok: false; result: WriteResult } {
  const key = recordKey(input.kind, input.objectId);
  try {
    if (input.kind === 'vendor' || input.kind === 'bill_payment')
      throw new Error(`a ${input.kind} is not written in batches`);
    const plan = input.kind === 'bill' ? planBill(input, key, ctx) : planMove(input, key, ctx);
    if (plan.ok) return { ok: true, values: plan.value };
    return { ok: false, result: failure(deps, input, plan.error) };
  } catch (error) {
    return { ok: false, result: failure(deps, input, failureOf(error, input), error) };
  }
}

/** Tryton answered with a refusal, so the call's transaction was rolled back: nothing was written. */
function answeredRefusal(error: unknown): boolean {
  return error instanceof TrytonFault && (error.kind === 'user_error' || error.kind === 'user_warning');
}

/** Each item alone, from what Tryton now holds for it (a draft of the batch is finished or discarded). */
async function writeAlone(
  deps: WriteDeps,
  companyIds: readonly number[],
  batch: readonly Planned[],
  ctx: TrytonContext,
): Promise<WriteResult[]> {
  const keys = batch.map((p) => recordKey(p.item.input.kind, p.item.input.objectId));
  let existing: Awaited<ReturnType<typeof findExisting>>;
  try {
    existing = await findExisting(deps.m, companyIds, keys);
  } catch (error) {
    return batch.map((p) => failure(deps, p.item.input, failureOf(error, p.item.input), error));
  }
  const results: WriteResult[] = [];
  for (const [i, p] of batch.entries()) {
    results.push(await writeOne(deps, p.item.input, existing.get(keys[i]!.text), ctx));
  }
  return results;
}

/** Creates and posts one batch of one model; results in the batch's order. */
export async function writeBatch(
  deps: WriteDeps,
  model: Model,
  batch: readonly Planned[],
  ctx: TrytonContext,
  companyIds: readonly number[],
): Promise<WriteResult[]> {
  const failAll = (error: unknown) =>
    batch.map((p) => failure(deps, p.item.input, failureOf(error, p.item.input), error));
  let ids: number[];
  try {
    ids = await deps.m.create(
      model,
      batch.map((p) => p.values),
    );
  } catch (error) {
    if (batch.length > 1 && answeredRefusal(error)) {
      const results: WriteResult[] = [];
      for (const part of partsOfRefused(batch))
        results.push(...(await writeBatch(deps, model, part, ctx, companyIds)));
      return results;
    }
    return failAll(error);
  }
  if (ids.length !== batch.length) {
    // Tryton wrote something it did not name: the next sync's look-up finds what it was.
    return failAll(new TrytonFault('server', `${model}.create`, `Tryton answered ${ids.length} ids`));
  }
  try {
    await postDrafts(deps, model, ids);
  } catch (error) {
    // Nothing was posted; the drafts are each finished or discarded alone.
    if (answeredRefusal(error)) return writeAlone(deps, companyIds, batch, ctx);
    return failAll(error);
  }
  return batch.map((p, i) => success(deps, p.item.input, { model, id: ids[i]! }, false));
}
