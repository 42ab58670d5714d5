import type { ErpErrorInfo } from '../errors.ts';
import { postOne } from '../post-one.ts';
import { collect, failureOf, newObjectId, objects, referenceOf } from './objects.ts';
import { check, checkEqual, type Rule, RuleBroken } from './rule.ts';

/**
 * Refusals and categories (docs/platform.md G27): each expected refusal is a value with the
 * right category, a stable code, and words a bookkeeper can act on; nothing is written for it.
 */

function checkUserActionable(error: ErpErrorInfo, code: string): void {
  checkEqual(error.category, 'user_actionable', `category of ${code}`);
  checkEqual(error.code, code, 'refusal code');
  check(error.title.length > 10, `${code}: the title "${error.title}" says too little`);
  check((error.fix?.length ?? 0) > 10, `${code}: the fix "${error.fix ?? ''}" says too little`);
  check(
    /^Action needed: .+ Fix: .+/.test(error.message),
    `${code}: message "${error.message}" is not "Action needed: … Fix: …"`,
  );
}

function checkMentions(text: string, pattern: string | RegExp, what: string): void {
  const found = typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
  check(found, `${what}: "${text}" does not mention ${String(pattern)}`);
}

export const refusalRules: Rule[] = [
  {
    id: 'refusals.inactive-account',
    group: 'refusals',
    title:
      'refuses an inactive account, naming its code and saying to reactivate it or pick another; writes nothing',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const card = o.card({ lines: [o.line(4250, { glAccountId: fixture.inactiveAccount.id })] });
      const error = failureOf(await postOne(erp, card));
      checkUserActionable(error, 'ACCOUNT_INACTIVE');
      checkMentions(error.message, fixture.inactiveAccount.code, 'ACCOUNT_INACTIVE');
      checkMentions(error.message, /reactivate/i, 'ACCOUNT_INACTIVE');
      checkMentions(error.message, /another/i, 'ACCOUNT_INACTIVE');
      // Nothing was held: the same id, coded right, is a first write and not a replay.
      const fixed = await postOne(erp, { ...card, lines: [o.line(4250)] });
      referenceOf(fixed);
      check(fixed.ok && !fixed.replayed, 'the refused card was held: coded right, it answered replayed');
    },
  },
  {
    id: 'refusals.unknown-account',
    group: 'refusals',
    title: 'refuses an unknown account, naming the id',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const line = o.line(1899, { glAccountId: fixture.unknownAccountId });
      const error = failureOf(await postOne(erp, o.reimbursement({ lines: [line] })));
      checkUserActionable(error, 'ACCOUNT_UNKNOWN');
      checkMentions(error.message, fixture.unknownAccountId, 'ACCOUNT_UNKNOWN');
    },
  },
  {
    id: 'refusals.closed-period',
    group: 'refusals',
    title: 'refuses a date in a closed period, saying to reopen it or change the date',
    async run({ erp, fixture }) {
      const error = failureOf(await postOne(erp, objects(fixture).card({ date: fixture.closedDate })));
      checkUserActionable(error, 'PERIOD_CLOSED');
      checkMentions(error.message, fixture.closedDate, 'PERIOD_CLOSED');
      checkMentions(error.message, /closed/, 'PERIOD_CLOSED');
      checkMentions(error.message, /reopen/i, 'PERIOD_CLOSED');
    },
  },
  {
    id: 'refusals.vendors',
    group: 'refusals',
    title: 'refuses an unknown and an inactive vendor',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const unknown = failureOf(await postOne(erp, o.bill({ vendorId: fixture.unknownVendorId })));
      checkUserActionable(unknown, 'VENDOR_UNKNOWN');
      checkMentions(unknown.message, fixture.unknownVendorId, 'VENDOR_UNKNOWN');
      const inactive = failureOf(await postOne(erp, o.bill({ vendorId: fixture.inactiveVendor.id })));
      checkUserActionable(inactive, 'VENDOR_INACTIVE');
      checkMentions(inactive.message, fixture.inactiveVendor.name, 'VENDOR_INACTIVE');
    },
  },
  {
    id: 'refusals.required-dimension',
    group: 'refusals',
    title: 'refuses a bill line without a required dimension, naming the field',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const { [fixture.requiredField.id]: _left, ...rest } = fixture.dimensions;
      const bill = o.bill({ lines: [{ ...o.line(120_000), dimensions: rest }] });
      const error = failureOf(await postOne(erp, bill));
      checkUserActionable(error, 'DIMENSION_REQUIRED');
      checkMentions(error.message, fixture.requiredField.name, 'DIMENSION_REQUIRED');
    },
  },
  {
    id: 'refusals.foreign-currency',
    group: 'refusals',
    title: 'refuses an object in a currency the books are not kept in, naming both',
    async run({ erp, fixture }) {
      const card = objects(fixture).card({ currency: fixture.foreignCurrency });
      const error = failureOf(await postOne(erp, card));
      checkUserActionable(error, 'CURRENCY_MISMATCH');
      checkMentions(error.message, fixture.foreignCurrency.code, 'CURRENCY_MISMATCH');
      checkMentions(error.message, fixture.currency.code, 'CURRENCY_MISMATCH');
    },
  },
  {
    id: 'refusals.unknown-bill',
    group: 'refusals',
    title: 'refuses a payment of a bill the ERP does not hold, saying to sync the bill first',
    async run({ erp, fixture }) {
      const billObjectId = newObjectId('missing-bill');
      const error = failureOf(await postOne(erp, objects(fixture).payment(billObjectId)));
      checkUserActionable(error, 'BILL_UNKNOWN');
      checkMentions(error.message, billObjectId, 'BILL_UNKNOWN');
      checkMentions(error.message, /sync the bill first/i, 'BILL_UNKNOWN');
    },
  },
  {
    id: 'refusals.one-bad-item',
    group: 'refusals',
    title: 'refuses one bad item of a batch, at its own position, and posts the others',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const bad = o.card({ lines: [o.line(4250, { glAccountId: fixture.inactiveAccount.id })] });
      // The bad item is first and the batch is not symmetric, so results out of order show.
      const results = await erp.postMany([bad, o.card(), o.reimbursement()]);
      checkEqual(
        results.map((r) => r.ok),
        [false, true, true],
        'which items of [inactive-account card, card, reimbursement] were posted',
      );
    },
  },
  {
    id: 'refusals.needs-integrator',
    group: 'refusals',
    title: 'answers an input the integration built wrong as needs_integrator, with a stable reference',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const broken = o.card({ totalMinor: 999, lines: [o.line(1000)] });
      const first = failureOf(await postOne(erp, broken));
      checkEqual(
        first.category,
        'needs_integrator',
        'category of a card whose lines do not sum to its total',
      );
      check(/\S{6,}/.test(first.referenceId ?? ''), `reference id "${first.referenceId ?? ''}" is too short`);
      checkMentions(first.message, first.referenceId!, 'needs_integrator message');
      checkMentions(first.message, /^Contact your integrator: /, 'needs_integrator message');
      const again = failureOf(await postOne(erp, broken));
      checkEqual(again.referenceId, first.referenceId, 'reference id of the same fault twice');
    },
  },
  {
    id: 'refusals.unreachable-is-transient',
    group: 'refusals',
    title: 'answers an unreachable ERP as transient, asking to retry later (needs unreachableErp)',
    async run({ fixture, unreachableErp }) {
      if (!unreachableErp) return;
      const error = failureOf(await postOne(unreachableErp, objects(fixture).card()));
      checkEqual(error.category, 'transient', 'category of a write to an unreachable ERP');
      checkMentions(error.message, /^Temporary problem: .*retried automatically/, 'transient message');
      // Reads cannot return a value: they throw the one error class, with the same category.
      const thrown = await collect(unreachableErp.glAccounts()).then(
        () => undefined,
        (e: unknown) => e as { name?: string; category?: string },
      );
      if (!thrown) throw new RuleBroken('reading the chart of an unreachable ERP did not throw');
      checkEqual(
        { name: thrown.name, category: thrown.category },
        { name: 'ErpError', category: 'transient' },
        'the error a chart read of an unreachable ERP throws',
      );
    },
  },
  {
    id: 'refusals.refusal-writes-nothing',
    group: 'refusals',
    title: 'lets a refused object post once the cause is gone (a refusal writes nothing)',
    async run({ erp, fixture }) {
      const o = objects(fixture);
      const bill = o.bill();
      const payment = o.payment(bill.objectId);
      failureOf(await postOne(erp, payment));
      referenceOf(await postOne(erp, bill));
      referenceOf(await postOne(erp, payment));
    },
  },
];
