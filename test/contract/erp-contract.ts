import { beforeAll, describe, expect, it } from 'vitest';
import { GlClassification } from '../../src/erp/chart.ts';
import { postOne } from '../../src/erp/post-one.ts';
import { type ContractSubject, collect, newObjectId, objects, referenceOf } from './erp-contract-objects.ts';
import { refusalContract } from './erp-contract-refusals.ts';

export type { ContractFixture, ContractSubject } from './erp-contract-objects.ts';

/**
 * The behaviour every ERP adapter must show, whatever the ERP: chart streams, every object
 * kind, idempotency (sequential, in-batch and concurrent), every refusal with its category and
 * a message a bookkeeper can act on, and lookups. Run it from an integration test:
 *
 *   runErpContract('ledger', async () => ({ erp, fixture }));
 */
export function runErpContract(name: string, makeSubject: () => Promise<ContractSubject>): void {
  let subject: ContractSubject;
  const get = () => subject;

  describe(`ERP contract: ${name}`, () => {
    beforeAll(async () => {
      subject = await makeSubject();
    });

    describe('chart of accounts', () => {
      it('streams GL accounts with platform classifications, inactive ones flagged', async () => {
        const { erp, fixture } = get();
        const accounts = await collect(erp.glAccounts());
        for (const a of accounts) expect(GlClassification.options).toContain(a.classification);
        expect(accounts.find((a) => a.id === fixture.expenseAccountId)?.active).toBe(true);
        expect(accounts.find((a) => a.id === fixture.inactiveAccount.id)?.active).toBe(false);
        expect(new Set(accounts.map((a) => a.id)).size).toBe(accounts.length);
      });

      it('streams custom fields and each field’s options', async () => {
        const { erp, fixture } = get();
        const fields = await collect(erp.customFields());
        expect(fields.map((f) => f.id)).toContain(fixture.requiredField.id);
        for (const [fieldId, optionId] of Object.entries(fixture.dimensions)) {
          const options = await collect(erp.fieldOptions(fieldId));
          expect(options.map((o) => o.id)).toContain(optionId);
          for (const o of options) expect(o.fieldId).toBe(fieldId);
        }
      });

      it('streams vendors, tax rates as decimal strings and tax codes naming streamed rates', async () => {
        const { erp, fixture } = get();
        const vendors = await collect(erp.vendors());
        expect(vendors.find((v) => v.id === fixture.vendorId)?.active).toBe(true);
        const rates = await collect(erp.taxRates());
        for (const r of rates) expect(r.rate).toMatch(/^-?\d+(\.\d+)?$/);
        const codes = await collect(erp.taxCodes());
        const rateIds = new Set(rates.map((r) => r.id));
        expect(codes.map((c) => c.id)).toContain(fixture.taxCodeId);
        for (const c of codes) for (const id of c.rateIds) expect(rateIds.has(id)).toBe(true);
      });
    });

    describe('every object kind', () => {
      it('posts a card transaction, a refund and a split with tax', async () => {
        const { erp, fixture } = get();
        const o = objects(fixture);
        expect(referenceOf(await postOne(erp, o.card()))).toBeTruthy();
        const refund = o.card({ totalMinor: -4250, lines: [o.line(-4250)] });
        expect(referenceOf(await postOne(erp, refund))).toBeTruthy();
        const split = o.card({
          totalMinor: 10_000,
          lines: [
            o.line(6_000, { taxCodeId: fixture.taxCodeId }),
            o.line(4_000, { glAccountId: fixture.otherExpenseAccountId }),
          ],
        });
        expect(referenceOf(await postOne(erp, split))).toBeTruthy();
      });

      it('posts a reimbursement, a transfer and a cashback', async () => {
        const { erp, fixture } = get();
        const o = objects(fixture);
        expect(referenceOf(await postOne(erp, o.reimbursement()))).toBeTruthy();
        expect(referenceOf(await postOne(erp, o.transfer()))).toBeTruthy();
        expect(referenceOf(await postOne(erp, o.cashback()))).toBeTruthy();
      });

      it('posts a bill with a deep link, then its payment', async () => {
        const { erp, fixture } = get();
        const o = objects(fixture);
        const bill = o.bill();
        const posted = await postOne(erp, bill);
        expect(posted.ok && posted.deepLinkUrl).toMatch(/^https?:\/\//);
        expect(referenceOf(await postOne(erp, o.payment(bill.objectId)))).toBeTruthy();
      });

      it('creates a vendor that then appears in the chart and can be billed', async () => {
        const { erp, fixture } = get();
        const name = `Contract Vendor ${newObjectId('name')}`;
        const vendorId = referenceOf(
          await erp.createVendor({ kind: 'vendor', objectId: newObjectId('vendor'), name }),
        );
        const vendors = await collect(erp.vendors());
        expect(vendors.find((v) => v.id === vendorId)).toMatchObject({ name, active: true });
        expect(referenceOf(await postOne(erp, objects(fixture).bill({ vendorId })))).toBeTruthy();
      });

      it('posts a batch of every kind, results in input order', async () => {
        const { erp, fixture } = get();
        const o = objects(fixture);
        const bill = o.bill();
        const items = [
          o.card(),
          o.reimbursement(),
          o.transfer(),
          o.cashback(),
          bill,
          o.payment(bill.objectId),
        ];
        const results = await erp.postMany(items);
        expect(results.map((r) => [r.ok, r.kind, r.objectId])).toEqual(
          items.map((i) => [true, i.kind, i.objectId]),
        );
      });
    });

    describe('idempotency', () => {
      it('returns the first result and writes nothing on a second call with the same id', async () => {
        const { erp, fixture } = get();
        const card = objects(fixture).card();
        const first = await postOne(erp, card);
        const second = await postOne(erp, {
          ...card,
          memo: 'changed',
          totalMinor: 1,
          lines: [objects(fixture).line(1)],
        });
        expect(second).toEqual({ ...first, replayed: true });
        expect(first.ok && first.replayed).toBe(false);
      });

      it('creates a vendor once per object id', async () => {
        const { erp } = get();
        const input = { kind: 'vendor' as const, objectId: newObjectId('vendor'), name: 'Once Only Ltd' };
        const first = referenceOf(await erp.createVendor(input));
        expect(referenceOf(await erp.createVendor(input))).toBe(first);
        const named = (await collect(erp.vendors())).filter((v) => v.name === 'Once Only Ltd');
        expect(named.map((v) => v.id)).toEqual([first]);
      });

      it('writes once when the same object is posted concurrently', async () => {
        const { erp, fixture } = get();
        const bill = objects(fixture).bill();
        const results = await Promise.all([postOne(erp, bill), postOne(erp, bill), erp.postMany([bill])]);
        const flat = [results[0], results[1], ...results[2]];
        expect(new Set(flat.map(referenceOf)).size).toBe(1);
        expect(flat.filter((r) => r.ok && !r.replayed)).toHaveLength(1);
      });

      it('treats a repeated id inside one batch as a replay', async () => {
        const { erp, fixture } = get();
        const card = objects(fixture).card();
        const [a, b] = await erp.postMany([card, card]);
        expect(referenceOf(b!)).toBe(referenceOf(a!));
        expect(b!.ok && b!.replayed).toBe(true);
      });
    });

    refusalContract(get);

    describe('replays resolve uncertain outcomes', () => {
      it('answers a retried batch with the first references, replayed, in input order', async () => {
        const { erp, fixture } = get();
        const o = objects(fixture);
        const batch = [o.card(), o.reimbursement(), o.transfer()];
        const first = await erp.postMany(batch);
        const again = await erp.postMany([batch[2]!, batch[0]!, batch[1]!]);
        expect(again.map((r) => [r.objectId, referenceOf(r), r.ok && r.replayed])).toEqual(
          [first[2]!, first[0]!, first[1]!].map((r) => [r.objectId, referenceOf(r), true]),
        );
      });

      it('replays a bill with its deep link', async () => {
        const { erp, fixture } = get();
        const bill = objects(fixture).bill();
        const posted = await postOne(erp, bill);
        const again = await postOne(erp, bill);
        expect(again).toMatchObject({
          ok: true,
          replayed: true,
          deepLinkUrl: posted.ok ? posted.deepLinkUrl : 'none',
        });
      });
    });
  });
}
