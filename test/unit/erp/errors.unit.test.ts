import { describe, expect, it } from 'vitest';
import { classifyThrown, isTransient } from '../../../src/erp/classify.ts';
import {
  ErpError,
  ErpErrorInfo,
  integratorReference,
  needsIntegrator,
  transient,
  userActionable,
} from '../../../src/erp/errors.ts';

describe('error categories', () => {
  it('words a user-actionable error as a title and the fix', () => {
    const info = userActionable(
      'ACCOUNT_INACTIVE',
      'GL account 6020 Travel is inactive',
      'reactivate it in the ledger',
    );
    expect(info.message).toBe(
      'Action needed: GL account 6020 Travel is inactive. Fix: Reactivate it in the ledger.',
    );
    expect(ErpErrorInfo.parse(info)).toEqual(info);
  });

  it('words a transient error as a retry prompt', () => {
    const info = transient(
      'ERP_UNAVAILABLE',
      'The ERP could not record the bill just now',
      'the ERP did not answer',
    );
    expect(info.message).toMatch(
      /^Temporary problem: .* It will be retried automatically; you can also sync again later\.$/,
    );
  });

  it('words a needs-integrator error with the reference id', () => {
    const info = needsIntegrator(
      'ERP_UNEXPECTED',
      'The ERP refused the bill unexpectedly',
      'details logged',
      'ERP-ABC123',
    );
    expect(info.message).toMatch(
      /^Contact your integrator: .* Give your integrator the reference ERP-ABC123\.$/,
    );
  });

  it('derives references from what failed, never at random', () => {
    expect(integratorReference('bill', 'b-1', 'boom')).toBe(integratorReference('bill', 'b-1', 'boom'));
    expect(integratorReference('bill', 'b-1', 'boom')).not.toBe(integratorReference('bill', 'b-2', 'boom'));
    expect(integratorReference('x')).toMatch(/^ERP-[0-9A-F]{12}$/);
  });

  it('ErpError exposes the parts of its info', () => {
    const error = new ErpError(needsIntegrator('X', 'Title here', 'detail', 'ERP-1'));
    expect(error).toBeInstanceOf(Error);
    expect([error.category, error.code, error.title, error.detail, error.referenceId]).toEqual([
      'needs_integrator',
      'X',
      'Title here',
      'detail',
      'ERP-1',
    ]);
    expect(error.message).toBe(error.info.message);
  });
});

describe('classifyThrown', () => {
  const withCode = (code: string) => Object.assign(new Error(code), { code });

  it('calls network failures, restarts, deadlocks and timeouts transient', () => {
    for (const code of [
      'ECONNREFUSED',
      'CONNECTION_CLOSED',
      '08006',
      '40001',
      '40P01',
      '53300',
      '57P01',
      '57014',
      '55P03',
    ]) {
      expect(isTransient(withCode(code)), code).toBe(true);
      expect(classifyThrown(withCode(code), 'bill b-1').category).toBe('transient');
    }
  });

  it('calls everything else needs_integrator, with a reference and without the raw text', () => {
    const info = classifyThrown(withCode('23505'), 'bill b-1', 'bill', 'b-1');
    expect(info.category).toBe('needs_integrator');
    expect(info.referenceId).toMatch(/^ERP-/);
    expect(info.message).not.toContain('23505');
    expect(isTransient(new Error('plain'))).toBe(false);
  });

  it('passes an ErpError through unchanged', () => {
    const info = userActionable('A', 'Some title', 'some fix');
    expect(classifyThrown(new ErpError(info), 'x')).toBe(info);
  });
});
