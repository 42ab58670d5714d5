import { postOne } from '../post-one.ts';
import type { ErpWrite, WriteResult } from '../types.ts';
import { collect, objects, referenceOf } from './objects.ts';
import { check, checkEqual, type Rule, show } from './rule.ts';

/**
 * Breaks the rule unless each result answers the input at its position: same kind and object
 * id, one result per input. The sync reports result i for object i, so a result filed under
 * another object would mark the wrong object synced.
 */
export function checkAnswersInOrder(items: readonly ErpWrite[], results: readonly WriteResult[]): void {
  checkEqual(results.length, items.length, 'number of results');
  checkEqual(
    results.map((r) => `${r.kind} ${r.objectId}`),
    items.map((i) => `${i.kind} ${i.objectId}`),
    'results by position',
  );
}

/** Every kind of object the platform syncs can be written, alone and in a batch. */
export const objectRules: Rule[] = [
  {
    id: 'objects.card-transactions',
    group: 'objects',
    title: 'posts a card transaction, a refund and a split with tax',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const refund = o.card({ totalMinor: -4250, lines: [o.line(-4250)] });
      const split = o.card({
        totalMinor: 10_000,
        lines: [
          o.line(6_000, { taxCodeId: fixture.taxCodeId }),
          o.line(4_000, { glAccountId: fixture.otherExpenseAccountId }),
        ],
      });
      for (const card of [o.card(), refund, split]) referenceOf(await postOne(erp, card));
    },
  },
  {
    id: 'objects.reimbursement-transfer-cashback',
    group: 'objects',
    title: 'posts a reimbursement, a transfer and a cashback',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      for (const item of [o.reimbursement(), o.transfer(), o.cashback()])
        referenceOf(await postOne(erp, item));
    },
  },
  {
    id: 'objects.bill-and-payment',
    group: 'objects',
    title:
      'posts a bill, linked under the public base URL (none without one, docs/platform.md F42), then its payment in a later call',
    async run({ erp, fixture, deepLinkBase }) {
      const o = objects(fixture);
      const bill = o.bill();
      const posted = await postOne(erp, bill);
      referenceOf(posted);
      const link = posted.ok ? posted.deepLinkUrl : undefined;
      if (deepLinkBase)
        check(
          link?.startsWith(deepLinkBase),
          `a posted bill's deep link ${show(link)} is not under the public base URL ${deepLinkBase}`,
        );
      else check(link === undefined, `a bill posted without a public base URL has a deep link ${show(link)}`);
      // The payment finds the bill only if the acknowledged bill is really held.
      referenceOf(await postOne(erp, o.payment(bill.objectId)));
    },
  },
  {
    id: 'objects.vendor',
    group: 'objects',
    title: 'creates a vendor that then appears in the chart and can be billed',
    async run({ erp, fixture }) {
      const input = objects(fixture).vendor();
      const vendorId = referenceOf(await erp.createVendor(input));
      const vendor = (await collect(erp.vendors())).find((v) => v.id === vendorId);
      check(
        vendor?.name === input.name && vendor.active,
        `created vendor ${vendorId} is not streamed as active`,
      );
      referenceOf(await postOne(erp, objects(fixture).bill({ vendorId })));
    },
  },
  {
    id: 'objects.batch-in-input-order',
    group: 'objects',
    title: 'posts a batch of every kind, one result per item, in input order',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const bill = o.bill();
      const items = [o.card(), bill, o.reimbursement(), o.payment(bill.objectId), o.transfer(), o.cashback()];
      const results = await erp.postMany(items);
      checkAnswersInOrder(items, results);
      for (const r of results) referenceOf(r);
    },
  },
];
