import { describe, expect, it } from 'vitest';
import type { ErpErrorInfo } from '../../src/erp/errors.ts';
import { postOne } from '../../src/erp/post-one.ts';
import {
  type ContractSubject,
  collect,
  failureOf,
  newObjectId,
  objects,
  referenceOf,
} from './erp-contract-objects.ts';

/**
 * Refusals and categories (docs/platform.md G27): each expected refusal is a value with the
 * right category, a stable code, and words a bookkeeper can act on; nothing is written for it.
 */

function expectUserActionable(error: ErpErrorInfo, code: string) {
  expect(error.category).toBe('user_actionable');
  expect(error.code).toBe(code);
  expect(error.title.length).toBeGreaterThan(10);
  expect(error.fix?.length).toBeGreaterThan(10);
  expect(error.message).toMatch(/^Action needed: .+ Fix: .+/);
}

export function refusalContract(get: () => ContractSubject): void {
  describe('refusals', () => {
    it('refuses an inactive account, naming its code and saying to reactivate it or pick another', async () => {
      const { erp, fixture } = get();
      const o = objects(fixture);
      const card = o.card({ lines: [o.line(4250, { glAccountId: fixture.inactiveAccount.id })] });
      const error = failureOf(await postOne(erp, card));
      expectUserActionable(error, 'ACCOUNT_INACTIVE');
      expect(error.message).toContain(fixture.inactiveAccount.code);
      expect(error.message).toMatch(/reactivate/i);
      expect(error.message).toMatch(/another/i);
      // Nothing was held: the same id, coded right, is a first write and not a replay.
      expect(await postOne(erp, { ...card, lines: [o.line(4250)] })).toMatchObject({
        ok: true,
        replayed: false,
      });
    });

    it('refuses an unknown account, naming the id', async () => {
      const { erp, fixture } = get();
      const o = objects(fixture);
      const error = failureOf(
        await postOne(
          erp,
          o.reimbursement({ lines: [o.line(1899, { glAccountId: fixture.unknownAccountId })] }),
        ),
      );
      expectUserActionable(error, 'ACCOUNT_UNKNOWN');
      expect(error.message).toContain(fixture.unknownAccountId);
    });

    it('refuses a date in a closed period, saying to reopen it or change the date', async () => {
      const { erp, fixture } = get();
      const error = failureOf(await postOne(erp, objects(fixture).card({ date: fixture.closedDate })));
      expectUserActionable(error, 'PERIOD_CLOSED');
      expect(error.message).toContain(fixture.closedDate);
      expect(error.message).toMatch(/closed/);
      expect(error.message).toMatch(/reopen/i);
    });

    it('refuses an unknown and an inactive vendor', async () => {
      const { erp, fixture } = get();
      const o = objects(fixture);
      const unknown = failureOf(await postOne(erp, o.bill({ vendorId: fixture.unknownVendorId })));
      expectUserActionable(unknown, 'VENDOR_UNKNOWN');
      expect(unknown.message).toContain(fixture.unknownVendorId);
      const inactive = failureOf(await postOne(erp, o.bill({ vendorId: fixture.inactiveVendor.id })));
      expectUserActionable(inactive, 'VENDOR_INACTIVE');
      expect(inactive.message).toContain(fixture.inactiveVendor.name);
    });

    it('refuses a bill line without a required dimension, naming the field', async () => {
      const { erp, fixture } = get();
      const o = objects(fixture);
      const { [fixture.requiredField.id]: _left, ...rest } = fixture.dimensions;
      const error = failureOf(
        await postOne(erp, o.bill({ lines: [{ ...o.line(120_000), dimensions: rest }] })),
      );
      expectUserActionable(error, 'DIMENSION_REQUIRED');
      expect(error.message).toContain(fixture.requiredField.name);
    });

    it('refuses an object in a currency the books are not kept in, naming both', async () => {
      const { erp, fixture } = get();
      const error = failureOf(
        await postOne(erp, objects(fixture).card({ currency: fixture.foreignCurrency })),
      );
      expectUserActionable(error, 'CURRENCY_MISMATCH');
      expect(error.message).toContain(fixture.foreignCurrency.code);
      expect(error.message).toContain(fixture.currency.code);
    });

    it('refuses a payment of a bill the ERP does not hold, saying to sync the bill first', async () => {
      const { erp, fixture } = get();
      const billObjectId = newObjectId('missing-bill');
      const error = failureOf(await postOne(erp, objects(fixture).payment(billObjectId)));
      expectUserActionable(error, 'BILL_UNKNOWN');
      expect(error.message).toContain(billObjectId);
      expect(error.message).toMatch(/sync the bill first/i);
    });

    it('refuses one bad item of a batch and posts the others', async () => {
      const { erp, fixture } = get();
      const o = objects(fixture);
      const bad = o.card({ lines: [o.line(4250, { glAccountId: fixture.inactiveAccount.id })] });
      const results = await erp.postMany([o.card(), bad, o.reimbursement()]);
      expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    });
  });

  describe('categories', () => {
    it('answers an input the integration built wrong as needs_integrator, with a stable reference', async () => {
      const { erp, fixture } = get();
      const o = objects(fixture);
      const broken = o.card({ totalMinor: 999, lines: [o.line(1000)] });
      const first = failureOf(await postOne(erp, broken));
      expect(first.category).toBe('needs_integrator');
      expect(first.referenceId).toMatch(/\S{6,}/);
      expect(first.message).toContain(first.referenceId!);
      expect(first.message).toMatch(/^Contact your integrator: /);
      expect(failureOf(await postOne(erp, broken)).referenceId).toBe(first.referenceId);
    });

    it('answers an unreachable ERP as transient, asking to retry later', async () => {
      const { fixture, unreachableErp } = get();
      if (!unreachableErp) return;
      const error = failureOf(await postOne(unreachableErp, objects(fixture).card()));
      expect(error.category).toBe('transient');
      expect(error.message).toMatch(/^Temporary problem: .*retried automatically/);
      // Reads cannot return a value: they throw the one error class, with the same category.
      await expect(collect(unreachableErp.glAccounts())).rejects.toMatchObject({
        name: 'ErpError',
        category: 'transient',
      });
    });

    it('lets a refused object post once the cause is gone (a refusal writes nothing)', async () => {
      const { erp, fixture } = get();
      const o = objects(fixture);
      const bill = o.bill();
      const payment = o.payment(bill.objectId);
      failureOf(await postOne(erp, payment));
      referenceOf(await postOne(erp, bill));
      expect(referenceOf(await postOne(erp, payment))).toBeTruthy();
    });
  });
}
