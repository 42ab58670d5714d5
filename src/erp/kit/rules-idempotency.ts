import { postOne } from '../post-one.ts';
import type { WriteResult } from '../types.ts';
import { collect, objects, referenceOf } from './objects.ts';
import { check, checkEqual, type Rule } from './rule.ts';

/** Breaks the rule unless `again` is `first` replayed: same reference, `replayed: true`. */
export function checkReplayOf(
  first: WriteResult | undefined,
  again: WriteResult | undefined,
  what: string,
): void {
  const reference = referenceOf(first);
  check(first?.ok && !first.replayed, `${what}: the first write says replayed`);
  const second = referenceOf(again);
  check(
    second === reference,
    `${what}: posted again it answered reference ${second}, not the first write's ${reference}: ` +
      'a second record was written, or the first one is not held',
  );
  check(again?.ok && again.replayed, `${what}: posted again it answered replayed: false`);
}

/**
 * Writes are idempotent by (kind, object id): the sync may post an object again after a crash,
 * a timeout or a second press, and the books must hold it once.
 */
export const idempotencyRules: Rule[] = [
  {
    id: 'idempotency.sequential-retry',
    group: 'idempotency',
    title: 'answers a second post of an id with the first result, replayed, even when the input changed',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const card = o.card();
      const first = await postOne(erp, card);
      const second = await postOne(erp, { ...card, memo: 'changed', totalMinor: 1, lines: [o.line(1)] });
      checkReplayOf(first, second, `card ${card.objectId}`);
      checkEqual(second, { ...first, replayed: true }, 'the replayed result');
    },
  },
  {
    id: 'idempotency.vendor-once',
    group: 'idempotency',
    title: 'creates a vendor once per object id',
    async run({ erp, fixture }) {
      const input = objects(fixture).vendor();
      const first = await erp.createVendor(input);
      checkReplayOf(first, await erp.createVendor(input), `vendor ${input.objectId}`);
      const named = (await collect(erp.vendors())).filter((v) => v.name === input.name);
      checkEqual(
        named.map((v) => v.id),
        [referenceOf(first)],
        `vendors named ${input.name}`,
      );
    },
  },
  {
    id: 'idempotency.concurrent',
    group: 'idempotency',
    title: 'writes once when the same object is posted concurrently',
    async run({ erp, fixture }) {
      const bill = objects(fixture).bill();
      const results = await Promise.all([postOne(erp, bill), postOne(erp, bill), erp.postMany([bill])]);
      const flat = [results[0], results[1], ...results[2]];
      check(
        new Set(flat.map(referenceOf)).size === 1,
        'concurrent posts of one bill answered different references',
      );
      check(
        flat.filter((r) => r?.ok && !r.replayed).length === 1,
        'concurrent posts of one bill wrote more than once',
      );
    },
  },
  {
    id: 'idempotency.repeat-in-batch',
    group: 'idempotency',
    title: 'treats a repeated id inside one batch as a replay',
    async run({ erp, fixture }) {
      const card = objects(fixture).card();
      const [a, b] = await erp.postMany([card, card]);
      checkReplayOf(a, b, `card ${card.objectId} twice in one batch`);
    },
  },
];
