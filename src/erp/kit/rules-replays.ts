import { postOne } from '../post-one.ts';
import { objects, referenceOf } from './objects.ts';
import { check, checkEqual, type Rule } from './rule.ts';
import { checkReplayOf } from './rules-idempotency.ts';
import { checkAnswersInOrder } from './rules-objects.ts';

/**
 * The contract has no look-up: an uncertain outcome (a timeout, a worker killed mid-batch) is
 * resolved by posting the same objects again, and the replay must say what the first write did.
 * These rules are what that recovery relies on.
 */
export const replayRules: Rule[] = [
  {
    id: 'replays.retried-batch',
    group: 'replays',
    title: 'answers a retried batch with the first references, replayed, each result at its item',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const bill = o.bill();
      const batch = [o.card(), o.reimbursement(), bill, o.payment(bill.objectId), o.transfer()];
      const first = await erp.postMany(batch);
      checkAnswersInOrder(batch, first);
      // The retry comes in another order, as the sync's next page would: answers follow the items.
      const order = [4, 2, 0, 3, 1];
      const again = await erp.postMany(order.map((i) => batch[i]!));
      checkAnswersInOrder(
        order.map((i) => batch[i]!),
        again,
      );
      order.forEach((i, n) => {
        checkReplayOf(first[i], again[n], `${batch[i]!.kind} ${batch[i]!.objectId} in a retried batch`);
      });
    },
  },
  {
    id: 'replays.acknowledged-write-is-held',
    group: 'replays',
    title:
      'holds what it acknowledged: a later call pays an acknowledged bill, and the bill replays with its deep link',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const bill = o.bill();
      const posted = await postOne(erp, bill);
      referenceOf(posted);
      const paid = await postOne(erp, o.payment(bill.objectId));
      check(
        paid.ok,
        `the ERP acknowledged bill ${bill.objectId} but a later payment of it was refused: ${JSON.stringify(paid)}`,
      );
      const again = await postOne(erp, bill);
      checkReplayOf(posted, again, `bill ${bill.objectId}`);
      checkEqual(
        again.ok && again.deepLinkUrl,
        posted.ok && posted.deepLinkUrl,
        'deep link of the replayed bill',
      );
    },
  },
];
