import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { objects } from '../../../../src/erp/kit/index.ts';
import { postOne } from '../../../../src/erp/post-one.ts';
import { TrytonFault, TrytonRpc } from '../../../../src/erp/tryton/rpc.ts';
import { TrytonErp } from '../../../../src/erp/tryton/tryton-erp.ts';
import { TRYTON_BATCH_SIZE } from '../../../../src/erp/tryton/write-batch.ts';
import type { WriteResult } from '../../../../src/erp/types.ts';
import { readBooks } from '../../../support/tryton/books-check.ts';
import { readTrytonBooks, type TrytonBooks } from '../../../support/tryton/fixture.ts';
import { requireTryton, useTryton } from '../../../support/tryton/use-tryton.ts';

await requireTryton();

/**
 * New moves and invoices go to Tryton a batch per call (write-batch.ts): what Tryton holds after
 * batches, a refused object among them, and answers lost after Tryton committed. The adapter's
 * calls are counted at TrytonRpc.call, the one door to Tryton; Tryton itself is real.
 */

const realCall = TrytonRpc.prototype.call;

/** Counts the adapter's calls by method, and lets a test replace what one method answers. */
function watchCalls(answer?: (method: string, call: () => Promise<unknown>) => Promise<unknown>) {
  const calls: string[] = [];
  vi.spyOn(TrytonRpc.prototype, 'call').mockImplementation(function (
    this: TrytonRpc,
    method: string,
    params: unknown[],
  ) {
    calls.push(method);
    const call = () => realCall.call(this, method, params);
    return answer ? answer(method, call) : call();
  });
  return { count: (method: string) => calls.filter((c) => c === method).length };
}

/** Tryton does the call, and its answer never arrives (as after a timeout). */
const loseAnswerOf = (lost: string) => async (method: string, call: () => Promise<unknown>) => {
  const answer = await call();
  if (method === lost) throw new TrytonFault('unavailable', method, 'Tryton did not answer (timed out)');
  return answer;
};

const okResults = (results: WriteResult[]) => results.filter((r) => r.ok);

/**
 * A card refused inside a batch gets the words a lone write of such a card gets (`alone`): the
 * batch changes nothing in them. Both are refusals; the message names the card.
 */
function expectLoneWriteWords(result: WriteResult, alone: WriteResult, objectId: string) {
  expect(result.ok || alone.ok).toBe(false);
  if (!result.ok && !alone.ok) {
    expect(result.error.code).toBe(alone.error.code);
    expect(result.error.category).toBe(alone.error.category);
    expect(result.error.detail).toBe(alone.error.detail);
    expect(result.error.detail).toContain('Party');
    expect(result.error.message).toContain(objectId);
  }
}

describe('Tryton adapter: batch writes', () => {
  const tryton = useTryton();
  let books: TrytonBooks;

  beforeAll(async () => {
    books = await readTrytonBooks(tryton.connection);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const erp = () => new TrytonErp(tryton.connection);

  it('posts N card transactions in ceil(N / batch) move creates and as many posts, each once', async () => {
    const o = objects(books.fixture);
    const n = TRYTON_BATCH_SIZE * 2 + 7;
    const cards = Array.from({ length: n }, () => o.card());
    const bills = Array.from({ length: 3 }, () => o.bill());
    const adapter = erp();
    const watch = watchCalls();
    const results = await adapter.postMany([...cards, ...bills]);
    expect(okResults(results)).toHaveLength(n + 3);
    const batches = Math.ceil(n / TRYTON_BATCH_SIZE);
    expect(watch.count('model.account.move.create')).toBe(batches);
    expect(watch.count('model.account.move.post')).toBe(batches);
    expect(watch.count('model.account.invoice.create')).toBe(1);
    expect(watch.count('model.account.invoice.post')).toBe(1);
    const held = await adapter.lookupMany(cards);
    expect(held.every((h) => h.found)).toBe(true);
    const report = await readBooks(books.models);
    expect(report.duplicates).toEqual([]);
    expect(report.notPosted).toEqual([]);
    expect(report.unbalanced).toEqual([]);
  });

  /**
   * Party Required on 2150 while fn runs: Tryton refuses a line there without a party, which the
   * adapter's own checks do not foresee, so the refusal comes from Tryton's create of the batch.
   */
  async function withPartyRequired(fn: (liabilityAccountId: string) => Promise<void>) {
    const partyAccount = Number(books.accountId('2150'));
    await books.models.write('account.account', [partyAccount], { party_required: true });
    try {
      await fn(String(partyAccount));
    } finally {
      await books.models.write('account.account', [partyAccount], { party_required: false });
    }
  }

  it('a card Tryton refuses in a batch fails alone, with what to fix, and its neighbours post in halves of the batch', async () => {
    await withPartyRequired(async (liabilityAccountId) => {
      const o = objects(books.fixture);
      const good = Array.from({ length: 9 }, () => o.card());
      const bad = o.card({ liabilityAccountId });
      const batch = [...good.slice(0, 4), bad, ...good.slice(4)];
      const adapter = erp();
      const watch = watchCalls();
      const results = await adapter.postMany(batch);
      // A refused create wrote nothing: halves are tried as batches, not every card alone.
      expect(watch.count('model.account.move.create')).toBeLessThan(batch.length);
      vi.restoreAllMocks();
      expect(results.map((r) => r.objectId)).toEqual(batch.map((b) => b.objectId));
      const alone = await postOne(adapter, o.card({ liabilityAccountId }));
      expectLoneWriteWords(results[4]!, alone, bad.objectId);
      expect(results.filter((r, i) => i !== 4 && r.ok)).toHaveLength(good.length);
      expect((await adapter.lookupMany([bad]))[0]).toMatchObject({ found: false });
      const report = await readBooks(books.models);
      expect(report.records.has(`svc:card_transaction:${bad.objectId}`)).toBe(false);
      expect(report.notPosted).toEqual([]);
      expect(report.duplicates).toEqual([]);
    });
  });

  it('a batch Tryton refuses whole fails each card with its own message, in fewer creates than halving to single cards', async () => {
    await withPartyRequired(async (liabilityAccountId) => {
      const o = objects(books.fixture);
      const bad = Array.from({ length: 20 }, () => o.card({ liabilityAccountId }));
      const adapter = erp();
      const watch = watchCalls();
      const results = await adapter.postMany(bad);
      // Halves down to parts of SPLIT_MAX_ALONE, then each card alone: 1 + 2 + 4 + 20 creates,
      // where halving to single cards would take 2 × 20 - 1.
      expect(watch.count('model.account.move.create')).toBeLessThan(2 * bad.length - 1);
      expect(watch.count('model.account.move.post')).toBe(0);
      vi.restoreAllMocks();
      expect(results.map((r) => r.objectId)).toEqual(bad.map((b) => b.objectId));
      const alone = await postOne(adapter, o.card({ liabilityAccountId }));
      for (const [i, r] of results.entries()) expectLoneWriteWords(r, alone, bad[i]!.objectId);
      const held = await adapter.lookupMany(bad);
      expect(held.every((h) => !h.found)).toBe(true);
    });
  });

  it('a batch create Tryton committed but whose answer was lost is found and posted once by the next call', async () => {
    const o = objects(books.fixture);
    const cards = Array.from({ length: 12 }, () => o.card());
    watchCalls(loseAnswerOf('model.account.move.create'));
    const first = await erp().postMany(cards);
    expect(first.every((r) => !r.ok && r.error.category === 'transient')).toBe(true);
    vi.restoreAllMocks();

    const watch = watchCalls();
    const again = await erp().postMany(cards);
    expect(okResults(again)).toHaveLength(cards.length);
    expect(again.every((r) => r.ok && !r.replayed)).toBe(true);
    expect(watch.count('model.account.move.create'), 'the drafts are posted, not made again').toBe(0);
    const report = await readBooks(books.models);
    expect(report.duplicates).toEqual([]);
    expect(report.notPosted).toEqual([]);
    for (const card of cards)
      expect(report.records.get(`svc:card_transaction:${card.objectId}`)).toHaveLength(1);
  });

  it('a batch post Tryton committed but whose answer was lost replays on the next call', async () => {
    const o = objects(books.fixture);
    const cards = Array.from({ length: 6 }, () => o.card());
    watchCalls(loseAnswerOf('model.account.move.post'));
    const first = await erp().postMany(cards);
    expect(first.every((r) => !r.ok && r.error.category === 'transient')).toBe(true);
    vi.restoreAllMocks();
    const again = await erp().postMany(cards);
    expect(again.every((r) => r.ok && r.replayed)).toBe(true);
    const report = await readBooks(books.models);
    expect(report.duplicates).toEqual([]);
    expect(report.notPosted).toEqual([]);
  });
});
