import { CHART_STREAM_ITEMS_MAX, GlClassification } from '../chart.ts';
import { collect } from './objects.ts';
import { check, type Rule } from './rule.ts';

/** The chart streams: what the platform's coding dropdowns are built from. */
export const chartRules: Rule[] = [
  {
    // First: a stream that does not end would hang every rule after it, not only this one. Over
    // HTTP the adapter itself ends a cursor that does not move (src/page-guard.ts); the thrown
    // ErpPagingError breaks this rule with the route, the item type and what the cursor did.
    id: 'chart.paging',
    group: 'chart',
    title: 'pages every chart stream to its end, each item once',
    async run({ erp, fixture }) {
      const streams: [string, () => AsyncIterable<{ id: string }>][] = [
        ['GL accounts', () => erp.glAccounts()],
        ['custom fields', () => erp.customFields()],
        ...Object.keys(fixture.dimensions).map((fieldId): [string, () => AsyncIterable<{ id: string }>] => [
          `options of field ${fieldId}`,
          () => erp.fieldOptions(fieldId),
        ]),
        ['vendors', () => erp.vendors()],
        ['tax rates', () => erp.taxRates()],
        ['tax codes', () => erp.taxCodes()],
      ];
      for (const [what, open] of streams) {
        const seen = new Set<string>();
        for await (const item of open()) {
          check(!seen.has(item.id), `${what}: ${item.id} is streamed twice: the paging does not move on`);
          seen.add(item.id);
          check(
            seen.size <= CHART_STREAM_ITEMS_MAX,
            `${what}: more than ${CHART_STREAM_ITEMS_MAX} items: the stream does not end`,
          );
        }
      }
    },
  },
  {
    id: 'chart.gl-accounts',
    group: 'chart',
    title: 'streams GL accounts with platform classifications, inactive ones flagged',
    async run({ erp, fixture }) {
      const accounts = await collect(erp.glAccounts());
      for (const a of accounts) {
        check(
          GlClassification.options.includes(a.classification),
          `account ${a.id} is classified ${a.classification}`,
        );
      }
      const expense = accounts.find((a) => a.id === fixture.expenseAccountId);
      check(expense?.active === true, `expense account ${fixture.expenseAccountId} is missing or not active`);
      const inactive = accounts.find((a) => a.id === fixture.inactiveAccount.id);
      check(
        inactive?.active === false,
        `inactive account ${fixture.inactiveAccount.id} is missing or active`,
      );
      check(new Set(accounts.map((a) => a.id)).size === accounts.length, 'an account id is streamed twice');
    },
  },
  {
    id: 'chart.custom-fields',
    group: 'chart',
    title: 'streams custom fields and each field’s options',
    async run({ erp, fixture }) {
      const fields = await collect(erp.customFields());
      check(
        fields.some((f) => f.id === fixture.requiredField.id),
        `custom field ${fixture.requiredField.id} is not streamed`,
      );
      for (const [fieldId, optionId] of Object.entries(fixture.dimensions)) {
        const options = await collect(erp.fieldOptions(fieldId));
        check(
          options.some((o) => o.id === optionId),
          `option ${optionId} of field ${fieldId} is not streamed`,
        );
        for (const o of options)
          check(o.fieldId === fieldId, `option ${o.id} of field ${fieldId} names ${o.fieldId}`);
      }
    },
  },
  {
    id: 'chart.vendors-and-taxes',
    group: 'chart',
    title: 'streams vendors, tax rates as decimal strings and tax codes naming streamed rates',
    async run({ erp, fixture }) {
      const vendors = await collect(erp.vendors());
      check(
        vendors.find((v) => v.id === fixture.vendorId)?.active === true,
        `vendor ${fixture.vendorId} is missing or not active`,
      );
      const rates = await collect(erp.taxRates());
      for (const r of rates) check(/^-?\d+(\.\d+)?$/.test(r.rate), `tax rate ${r.id} is "${r.rate}"`);
      const codes = await collect(erp.taxCodes());
      const rateIds = new Set(rates.map((r) => r.id));
      check(
        codes.some((c) => c.id === fixture.taxCodeId),
        `tax code ${fixture.taxCodeId} is not streamed`,
      );
      for (const c of codes) {
        for (const id of c.rateIds)
          check(rateIds.has(id), `tax code ${c.id} names rate ${id}, never streamed`);
      }
    },
  },
];
