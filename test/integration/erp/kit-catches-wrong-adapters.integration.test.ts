import { beforeAll, describe, expect, it } from 'vitest';
import type { ErpAdapter } from '../../../src/erp/adapter.ts';
import {
  type ContractFixture,
  checkAdapter,
  ERP_RULES,
  type RuleOutcome,
} from '../../../src/erp/kit/index.ts';
import { seedKitBooks } from '../../../src/erp/ledger/kit-books.ts';
import { LedgerErp } from '../../../src/erp/ledger/ledger-erp.ts';
import { useTestDatabase } from '../../support/db.ts';
import {
  acceptsInactiveAccount,
  losesBills,
  postsTwiceOnRetry,
  rotatesAndRelabelsResults,
  rotatesResults,
  streamsAccountsForever,
} from '../../support/wrong-erps.ts';

const db = useTestDatabase({ migrate: false });

/** The ids of the rules an adapter broke, and why, from a full run of the kit. */
async function brokenRules(erp: ErpAdapter, fixture: ContractFixture): Promise<Map<string, string>> {
  const outcomes: RuleOutcome[] = [];
  const returned = await checkAdapter({ erp, fixture }, { onRule: (o) => outcomes.push(o) });
  expect(returned).toEqual(outcomes);
  expect(returned.map((o) => o.rule.id)).toEqual(ERP_RULES.map((r) => r.id));
  return new Map(returned.filter((o) => !o.held).map((o) => [o.rule.id, o.reason ?? '']));
}

describe('the ERP conformance kit on the built-in ledger and on deliberately wrong adapters', () => {
  let ledger: LedgerErp;
  let fixture: ContractFixture;

  beforeAll(async () => {
    const schema = db.newSchema('kit');
    fixture = await seedKitBooks(db.sql, schema);
    ledger = new LedgerErp({ sql: db.sql, schema });
  });

  it('the real ledger adapter holds to every rule', async () => {
    expect(Object.fromEntries(await brokenRules(ledger, fixture))).toEqual({});
  });

  it('flags an adapter that writes a retried batch a second time', async () => {
    const broken = await brokenRules(postsTwiceOnRetry(ledger), fixture);
    expect(broken.get('replays.retried-batch')).toMatch(
      /not the first write's .*a second record was written/,
    );
    expect(broken.get('idempotency.sequential-retry')).toMatch(/a second record was written/);
    expect(broken.has('idempotency.concurrent')).toBe(true);
    expect(broken.has('idempotency.vendor-once')).toBe(true);
  });

  it('flags an adapter that acknowledges a bill it never holds', async () => {
    const broken = await brokenRules(losesBills(ledger), fixture);
    expect(broken.get('replays.acknowledged-write-is-held')).toMatch(
      /acknowledged bill .* later payment of it was refused/,
    );
    expect(broken.get('objects.bill-and-payment')).toMatch(/BILL_UNKNOWN|sync the bill first/);
    // What it does not lose still holds: the kit names the fault, not everything.
    expect(broken.has('objects.card-transactions')).toBe(false);
    expect(broken.has('refusals.inactive-account')).toBe(false);
  });

  it('flags an adapter that posts a line coded to an inactive account', async () => {
    const broken = await brokenRules(acceptsInactiveAccount(ledger, fixture), fixture);
    expect(broken.get('refusals.inactive-account')).toMatch(/expected a refusal/);
    expect(broken.get('refusals.one-bad-item')).toMatch(/\[true,true,true\]/);
    expect([...broken.keys()].sort()).toEqual(['refusals.inactive-account', 'refusals.one-bad-item']);
  });

  it('F43: flags an adapter whose GL account stream never ends, and the check still ends', async () => {
    const broken = await brokenRules(streamsAccountsForever(ledger), fixture);
    expect(broken.get('chart.paging')).toMatch(
      /^GL accounts: \S+ is streamed twice: the paging does not move on$/,
    );
    // The rule that reads the whole stream stops at the cap instead of hanging the check.
    expect(broken.get('chart.gl-accounts')).toBe('a chart stream did not end after 1000000 items');
    expect([...broken.keys()].sort()).toEqual(['chart.gl-accounts', 'chart.paging']);
  });

  it('flags an adapter that answers a batch out of order', async () => {
    const broken = await brokenRules(rotatesResults(ledger), fixture);
    expect(broken.get('objects.batch-in-input-order')).toMatch(/results by position/);
    expect(broken.get('replays.retried-batch')).toMatch(/results by position/);
  });

  it('flags an adapter that answers a batch out of order under the right object ids', async () => {
    const broken = await brokenRules(rotatesAndRelabelsResults(ledger), fixture);
    expect(broken.get('refusals.one-bad-item')).toMatch(/expected \[false,true,true\]/);
    expect(broken.has('idempotency.repeat-in-batch')).toBe(true);
  });
});
