import { beforeAll, describe, it } from 'vitest';
import { type ContractSubject, ERP_RULES, type RuleGroup } from '../../src/erp/kit/index.ts';

const GROUP_TITLES: Record<RuleGroup, string> = {
  chart: 'chart of accounts',
  objects: 'every object kind',
  idempotency: 'idempotency',
  refusals: 'refusals and categories',
  replays: 'replays resolve uncertain outcomes',
};

/**
 * The ERP conformance kit (src/erp/kit) as vitest cases: one `it` per rule, grouped as the kit
 * groups them, so a broken rule fails with its reason. Run it from an integration test:
 *
 *   runErpContract('ledger', async () => ({ erp, fixture }));
 *
 * It lives with the tests because vitest is a development dependency; `checkAdapter` runs the
 * same rules without it.
 */
export function runErpContract(name: string, makeSubject: () => Promise<ContractSubject>): void {
  let subject: ContractSubject;

  describe(`ERP contract: ${name}`, () => {
    beforeAll(async () => {
      subject = await makeSubject();
    });

    for (const [group, title] of Object.entries(GROUP_TITLES)) {
      describe(title, () => {
        for (const rule of ERP_RULES.filter((r) => r.group === group)) {
          it(`${rule.id}: ${rule.title}`, () => rule.run(subject));
        }
      });
    }
  });
}
