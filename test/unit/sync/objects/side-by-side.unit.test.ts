import { describe, expect, it } from 'vitest';
import {
  currentDemandMeter,
  currentWindowShare,
  NetworkError,
  PlatformError,
} from '../../../../src/platform/index.ts';
import { sideBySide } from '../../../../src/sync/objects/side-by-side.ts';

describe('sync all side by side: the window shared between kinds (docs/platform.md F3, F28)', () => {
  it('F28: the kinds read by date run within the share, each one-cursor kind under a meter of its own; results keep the kinds order', async () => {
    const seen: Record<string, { shared: boolean; meter: unknown }> = {};
    const results = await sideBySide(['transactions', 'reimbursements', 'bills'], async (kind) => {
      seen[kind] = { shared: currentWindowShare() !== undefined, meter: currentDemandMeter() };
      return kind;
    });
    expect(seen.transactions).toEqual({ shared: true, meter: undefined });
    expect(seen.reimbursements!.shared).toBe(false);
    expect(seen.bills!.shared).toBe(false);
    expect(seen.reimbursements!.meter).toBeDefined();
    expect(seen.bills!.meter).toBeDefined();
    expect(seen.reimbursements!.meter).not.toBe(seen.bills!.meter);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : null))).toEqual([
      'transactions',
      'reimbursements',
      'bills',
    ]);
  });

  it('F3: the share lifts once the last one-cursor kind is done, while the kinds read by date still run', async () => {
    let finishTransactions = () => {};
    let lifted: boolean | null = null;
    const run = sideBySide(['transactions', 'cashbacks'], async (kind) => {
      if (kind === 'cashbacks') return kind;
      await new Promise<void>((resolve) => {
        finishTransactions = resolve;
      });
      // 196 permits per window: with no meter left the share admits every one at once.
      const share = currentWindowShare()!;
      const takes = Array.from({ length: 196 }, () => share.take(196, 3_600_000));
      lifted = await Promise.race([
        Promise.all(takes).then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500)),
      ]);
      return kind;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    finishTransactions();
    await run;
    expect(lifted).toBe(true);
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
