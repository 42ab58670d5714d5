import { type Indexed, phases, readBatch, replayRepeats } from '../core/batch.ts';
import type { PostingChart } from '../core/chart-view.ts';
import type { KeyLocks } from '../core/key-locks.ts';
import { planEntry } from '../core/plan.ts';
import { refuse } from '../core/refusals.ts';
import type { ErpErrorInfo } from '../errors.ts';
import type { ErpWrite, ObjectKind, PostingInput, VendorInput, WriteResult } from '../types.ts';
import { type HledgerBooks, loadBooks } from './books.ts';
import type { HledgerClient, NewTransaction } from './client.ts';
import { objectCode } from './codes.ts';
import { writeFaultInfo } from './faults.ts';
import { hledgerChart } from './posting-chart.ts';
import { plainText, toTransaction } from './transaction.ts';
import type { WrittenTransactions } from './written.ts';

/**
 * The path behind every hledger write: validate each item and collapse repeated ids
 * (core/batch.ts); per phase, lock the items' codes (a payment also locks its bill's, so two
 * payments of one bill never both see it open), read the journal once, answer what it already
 * holds as replays, plan the rest with the posting core and add them one by one. Each item
 * succeeds or fails on its own.
 */

export interface PostManyDeps {
  client: HledgerClient;
  locks: KeyLocks;
  /** What this process wrote and hledger-web may not show yet: replayed, and read as held. */
  written: WrittenTransactions;
  deepLink: (kind: ObjectKind, code: string) => string | undefined;
}

const success = (deps: PostManyDeps, input: ErpWrite, reference: string, replayed: boolean): WriteResult => {
  const deepLinkUrl = deps.deepLink(input.kind, reference);
  const link = deepLinkUrl ? { deepLinkUrl } : {};
  return { ok: true, kind: input.kind, objectId: input.objectId, referenceId: reference, ...link, replayed };
};

const failure = (input: ErpWrite, error: ErpErrorInfo): WriteResult => ({
  ok: false,
  kind: input.kind,
  objectId: input.objectId,
  error,
});

async function add(deps: PostManyDeps, input: ErpWrite, code: string, t: NewTransaction, reference: string) {
  try {
    await deps.client.add(t);
  } catch (error) {
    return failure(input, writeFaultInfo(error, input.kind, input.objectId));
  }
  deps.written.add(code, reference, t);
  return success(deps, input, reference, false);
}

/** A vendor is a subaccount of the payable account, opened by a zero posting coded with its id. */
async function writeVendor(deps: PostManyDeps, input: VendorInput, books: HledgerBooks, code: string) {
  const payable = books.roles.get('accounts_payable');
  if (!payable)
    return failure(input, refuse.missingDefault(hledgerChart(books).terms, 'accounts_payable', undefined));
  const account = `${payable}:${plainText(input.name)}`;
  const posting = { account, commodity: books.currency?.code ?? '', mantissa: 0, places: 0, comment: '' };
  const date = new Date().toISOString().slice(0, 10);
  const t = {
    date,
    code,
    description: `ledgersync vendor ${plainText(input.name)}`,
    comment: '',
    postings: [posting],
  };
  return add(deps, input, code, t, account);
}

async function writePosting(deps: PostManyDeps, input: PostingInput, chart: PostingChart, code: string) {
  // A bill credits its vendor's own account unless it names a payable account.
  const prepared =
    input.kind === 'bill' && !input.payableAccountId && chart.vendor(input.vendorId)
      ? { ...input, payableAccountId: input.vendorId }
      : input;
  const planned = planEntry(prepared, chart);
  if (!planned.ok) return failure(input, planned.error);
  const billObjectId = input.kind === 'bill_payment' ? input.billObjectId : undefined;
  const result = await add(deps, input, code, toTransaction(planned.value, code, billObjectId), code);
  if (!result.ok && billObjectId !== undefined) {
    const bill = chart.bill(billObjectId);
    if (bill) bill.open += input.totalMinor; // not written: later payments may use it
  }
  return result;
}

function referenceOf(books: HledgerBooks, deps: PostManyDeps, code: string): string | undefined {
  return books.posted.get(code)?.reference ?? deps.written.reference(code);
}

async function writePhase(deps: PostManyDeps, phase: Indexed[], out: WriteResult[]): Promise<void> {
  const keys = phase.flatMap(({ input }) => [
    objectCode(input.kind, input.objectId),
    ...(input.kind === 'bill_payment' ? [objectCode('bill', input.billObjectId)] : []),
  ]);
  await deps.locks.withKeys(keys, async () => {
    let books: HledgerBooks;
    try {
      books = await loadBooks(deps.client, deps.written);
    } catch (error) {
      for (const { index, input } of phase)
        out[index] = failure(input, writeFaultInfo(error, input.kind, input.objectId));
      return;
    }
    const chart = hledgerChart(books);
    for (const { index, input } of phase) {
      const code = objectCode(input.kind, input.objectId);
      const held = referenceOf(books, deps, code);
      if (held !== undefined) out[index] = success(deps, input, held, true);
      else if (input.kind === 'vendor') out[index] = await writeVendor(deps, input, books, code);
      else out[index] = await writePosting(deps, input, chart, code);
    }
  });
}

export async function postMany(deps: PostManyDeps, raw: readonly unknown[]): Promise<WriteResult[]> {
  const batch = readBatch(raw);
  for (const phase of phases(batch.unique)) {
    if (phase.length > 0) await writePhase(deps, phase, batch.out);
  }
  return replayRepeats(batch);
}
