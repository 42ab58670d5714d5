import { describe, expect, it } from 'vitest';
import type { ErpAdapter } from '../../../src/erp/adapter.ts';
import { ErpError } from '../../../src/erp/errors.ts';
import { postOne } from '../../../src/erp/post-one.ts';
import type { BillInput, WriteResult } from '../../../src/erp/types.ts';
import { validatingAdapter } from '../../../src/erp/validating-adapter.ts';

async function* items<T>(...values: T[]) {
  yield* values;
}

/** An adapter whose answers the test controls; only the methods a test calls do anything. */
function fakeErp(answers: {
  write?: (input: { kind: string; objectId: string }) => unknown;
  accounts?: unknown[];
}) {
  const write = async (input: { kind: string; objectId: string }) => answers.write?.(input) as WriteResult;
  return {
    name: 'fake',
    glAccounts: () => items(...(answers.accounts ?? [])),
    postMany: async (list: { kind: string; objectId: string }[]) => Promise.all(list.map(write)),
  } as unknown as ErpAdapter;
}

const bill = { kind: 'bill', objectId: 'b-1' } as BillInput;

describe('validatingAdapter', () => {
  it('passes well-formed answers through', async () => {
    const answer = {
      ok: true,
      kind: 'bill',
      objectId: 'b-1',
      referenceId: 'BILL-1',
      deepLinkUrl: 'https://erp/b/1',
      replayed: false,
    };
    const erp = validatingAdapter(fakeErp({ write: () => answer }));
    expect(await postOne(erp, bill)).toEqual(answer);
  });

  it('docs/platform.md F42: passes a bill posted without a deep link through (no public base URL configured)', async () => {
    const answer = { ok: true, kind: 'bill', objectId: 'b-1', referenceId: 'BILL-1', replayed: false };
    const erp = validatingAdapter(fakeErp({ write: () => answer }));
    expect(await postOne(erp, bill)).toEqual(answer);
  });

  it('refuses a result for another object, or one without a reference id', async () => {
    const other = validatingAdapter(
      fakeErp({
        write: () => ({
          ok: true,
          kind: 'bill',
          objectId: 'b-2',
          referenceId: 'X',
          deepLinkUrl: 'https://e/x',
          replayed: false,
        }),
      }),
    );
    expect((await other.postMany([bill]))[0]).toMatchObject({ ok: false, objectId: 'b-1' });
    const empty = validatingAdapter(
      fakeErp({ write: (i) => ({ ok: true, ...i, referenceId: '', replayed: false }) }),
    );
    expect((await postOne(empty, { kind: 'card_transaction', objectId: 't' } as never)).ok).toBe(false);
  });

  it('throws ErpError on a malformed chart item', async () => {
    const erp = validatingAdapter(
      fakeErp({ accounts: [{ id: 'gl-1', name: 'Cash', code: '', classification: 'MONEY' }] }),
    );
    const read = async () => {
      for await (const _ of erp.glAccounts()) {
        // drain
      }
    };
    await expect(read()).rejects.toBeInstanceOf(ErpError);
    await expect(read()).rejects.toMatchObject({ category: 'needs_integrator' });
  });

  it('keeps how long an interrupted write may take to land (writeSettleMs), and adds none', () => {
    const settling = { ...fakeErp({}), writeSettleMs: 60_000 } as ErpAdapter;
    expect(validatingAdapter(settling).writeSettleMs).toBe(60_000);
    expect(validatingAdapter(fakeErp({})).writeSettleMs).toBeUndefined();
  });
});
