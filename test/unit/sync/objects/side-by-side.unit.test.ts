import { describe, expect, it } from 'vitest';
import { currentWindowShare, NetworkError, PlatformError } from '../../../../src/platform/index.ts';
import { dateKindsShare, sideBySide } from '../../../../src/sync/objects/side-by-side.ts';

describe('sync all side by side: the window shared between kinds (docs/platform.md F3, F28)', () => {
  it('F28: kinds read by date keep at least 0.1 while one-cursor kinds read, and more as each finishes', () => {
    expect(dateKindsShare(4)).toBe(0.1);
    expect(dateKindsShare(2)).toBe(0.1);
    expect(dateKindsShare(1)).toBeCloseTo(0.55);
    expect(dateKindsShare(0)).toBe(1);
  });

  it('F28: only the kinds read by date run within the share; results keep the kinds order', async () => {
    const seen: Record<string, boolean> = {};
    const results = await sideBySide(['transactions', 'reimbursements', 'bills'], async (kind) => {
      seen[kind] = currentWindowShare() !== undefined;
      return kind;
    });
    expect(seen).toEqual({ transactions: true, reimbursements: false, bills: false });
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : null))).toEqual([
      'transactions',
      'reimbursements',
      'bills',
    ]);
  });
});

/** A kind's run that ends only when the test says so. */
function held<T>(value: T) {
  let release = () => {};
  const promise = new Promise<T>((resolve) => {
    release = () => resolve(value);
  });
  return { promise, release: () => release() };
}

const platformError = (status: number | null) => ({
  status,
  code: null,
  message: status === null ? 'network error ECONNREFUSED' : `HTTP ${status}`,
  traceId: null,
  retryable: status === null,
});

describe('sync all side by side: which failure stops which kinds', () => {
  it('F43: a kind the platform stops fails alone; the others run to their end', async () => {
    const bills = held('bills');
    let settled = false;
    const run = sideBySide(['transactions', 'bills'], (kind) =>
      kind === 'transactions' ? Promise.reject(new PlatformError(platformError(404))) : bills.promise,
    ).finally(() => {
      settled = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    bills.release();
    const results = await run;
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
  });

  it('a failure every kind would meet (no answer, the database gone) ends the run at once, not after the others', async () => {
    const bills = held('bills');
    const outage = new NetworkError(platformError(null));
    const databaseGone = Object.assign(new Error('connection terminated'), { code: 'CONNECTION_CLOSED' });
    for (const failure of [outage, databaseGone]) {
      const run = sideBySide(['transactions', 'bills', 'reimbursements'], (kind) =>
        kind === 'reimbursements' ? Promise.reject(failure) : bills.promise,
      );
      // The other kinds are still running: the run rejects without them.
      await expect(run).rejects.toBe(failure);
    }
    bills.release();
  });
});
