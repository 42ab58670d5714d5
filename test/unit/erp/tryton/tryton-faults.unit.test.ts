import { describe, expect, it } from 'vitest';
import { KeyLocks } from '../../../../src/erp/core/key-locks.ts';
import { classify } from '../../../../src/erp/tryton/chart-read.ts';
import { failureOf, readFailureOf } from '../../../../src/erp/tryton/faults.ts';
import { faultFromError, isConflict, TrytonFault } from '../../../../src/erp/tryton/rpc.ts';
import type { CardTransactionInput } from '../../../../src/erp/types.ts';

const card: CardTransactionInput = {
  kind: 'card_transaction',
  objectId: 'txn_1',
  date: '2025-03-04',
  entityId: null,
  currency: { code: 'USD', exponent: 2 },
  totalMinor: 100,
  memo: '',
  counterpart: null,
  lines: [{ amountMinor: 100, glAccountId: '8', dimensions: {}, memo: '' }],
};

const userError = (message: string) =>
  faultFromError('model.account.move.create', ['UserError', [message, '', null]]);

describe('Tryton faults', () => {
  it('parses the error shapes of trytond 6.0 JSON-RPC', () => {
    expect(userError('x')).toMatchObject({ kind: 'user_error', message: 'x' });
    expect(faultFromError('m', ['UserWarning', ['key', 'careful', '']])).toMatchObject({
      kind: 'user_warning',
    });
    expect(faultFromError('m', ['ConcurrencyException', 'changed'])).toMatchObject({ kind: 'concurrency' });
    expect(faultFromError('m', ['could not serialize access due to concurrent update', 'tb'])).toMatchObject({
      kind: 'unavailable',
    });
    expect(faultFromError('m', ['KeyError: 7', 'tb'])).toMatchObject({ kind: 'server' });
  });

  it('retries only conflicts Tryton rolled back', () => {
    expect(isConflict(userError('You can create only one journal per period.'))).toBe(true);
    expect(
      isConflict(faultFromError('m', ['could not obtain lock on row in relation "ir_sequence_strict"', ''])),
    ).toBe(true);
    expect(isConflict(new TrytonFault('unavailable', 'm', 'Tryton did not answer (ECONNRESET)'))).toBe(false);
    expect(isConflict(userError('To continue, you must create a period for the date "1/2/25".'))).toBe(false);
  });

  it("maps Tryton's own refusals to the bookkeeper's categories", () => {
    const closed = failureOf(
      userError('To create a line on account "Old Travel", you must set a type or unclose it.'),
      card,
    );
    expect(closed).toMatchObject({ category: 'user_actionable', code: 'ACCOUNT_INACTIVE' });
    expect(closed.message).toMatch(/Old Travel.*reactivate/i);
    const party = failureOf(
      userError('To create a line on account "Main Payable", you must set a party on line "x".'),
      card,
    );
    expect(party).toMatchObject({ category: 'user_actionable', code: 'ACCOUNT_NEEDS_PARTY' });
    const period = failureOf(userError('To continue, you must create a period for the date "3/4/25".'), card);
    expect(period).toMatchObject({ category: 'user_actionable', code: 'PERIOD_MISSING' });
    const access = failureOf(userError('You are not allowed to create records of "Account Move".'), card);
    expect(access).toMatchObject({ category: 'needs_integrator', code: 'ERP_ACCESS_DENIED' });
    const other = failureOf(userError('Something only Tryton knows.'), card);
    expect(other).toMatchObject({ category: 'needs_integrator', code: 'ERP_REFUSED' });
    expect(other.message).toContain('Something only Tryton knows.');
    expect(other.referenceId).toMatch(/^ERP-/);
  });

  it('answers an unreachable Tryton as transient and a refused login as needs_integrator', () => {
    const down = new TrytonFault('unavailable', 'm', 'Tryton did not answer (ECONNREFUSED)');
    expect(failureOf(down, card)).toMatchObject({ category: 'transient' });
    expect(readFailureOf(down, 'GL accounts').message).toMatch(/^Temporary problem: .*retried automatically/);
    const login = failureOf(new TrytonFault('login', 'common.db.login', 'Tryton refused the login'), card);
    expect(login).toMatchObject({ category: 'needs_integrator', code: 'ERP_LOGIN_REFUSED' });
  });
});

describe('account classification', () => {
  const type = (id: number, name: string, flags: Record<string, unknown>, parent: number | null = null) => ({
    id,
    name,
    statement: 'balance',
    assets: false,
    receivable: false,
    payable: false,
    revenue: false,
    expense: false,
    parent,
    ...flags,
  });
  const types = new Map(
    [
      type(1, 'Equity', {}),
      type(2, 'Income', { statement: 'income' }, 1),
      type(3, 'Expense', { statement: 'income', expense: true }, 2),
      type(4, 'Liability', {}),
      type(5, 'Payable', { payable: true }, 4),
      type(6, 'Cash', { assets: true }),
      type(7, 'Retained earnings', {}, 1),
    ].map((t) => [t.id, t]),
  );
  it('follows Tryton type flags, and the parents for equity', () => {
    expect([3, 5, 6, 7, 4, 2].map((id) => classify(id, types))).toEqual([
      'EXPENSE',
      'LIABILITY',
      'ASSET',
      'EQUITY',
      'LIABILITY',
      'ANY',
    ]);
    expect(classify(null, types)).toBe('UNKNOWN');
  });
});

describe('key locks', () => {
  it('runs holders of one key one after the other, others at once', async () => {
    const locks = new KeyLocks();
    const order: string[] = [];
    const slow = (name: string, keys: string[]) =>
      locks.withKeys(keys, async () => {
        order.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, 20));
        order.push(`end ${name}`);
      });
    await Promise.all([slow('a', ['k1', 'k2']), slow('b', ['k2']), slow('c', ['k3'])]);
    const [a, b] = [order.indexOf('start a'), order.indexOf('start b')];
    // a and b share k2: whichever started first ended before the other started.
    if (a < b) expect(b).toBeGreaterThan(order.indexOf('end a'));
    else expect(a).toBeGreaterThan(order.indexOf('end b'));
    expect(order.indexOf('start c')).toBeLessThan(Math.max(order.indexOf('end a'), order.indexOf('end b')));
  });
});
