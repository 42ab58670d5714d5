import { beforeAll, describe, expect, it } from 'vitest';
import { createErp, type ErpAdapter } from '../../../../src/erp/index.ts';
import { chartSummary } from '../../../../src/erp/ledger/chart-summary.ts';
import { LedgerErp } from '../../../../src/erp/ledger/ledger-erp.ts';
import { seedLedger } from '../../../../src/erp/ledger/seed.ts';
import {
  formatTrialBalance,
  trialBalance,
  trialBalanceTotals,
} from '../../../../src/erp/ledger/trial-balance.ts';
import type { ErpWrite } from '../../../../src/erp/types.ts';
import { useTestDatabase } from '../../../support/db.ts';
import { generateMix } from '../../../support/erp-sample-mix.ts';

const db = useTestDatabase({ migrate: false });
const COUNT = 10_000;
let schema: string;
let erp: ErpAdapter;
let mix: ErpWrite[];

async function rowCounts(): Promise<Record<string, number>> {
  const tables = ['postings', 'journal_entries', 'journal_lines', 'bills', 'bill_payments', 'vendors'];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await db.sql`select count(*)::int as n from ${db.sql(`${schema}.${table}`)}`;
    counts[table] = row!.n as number;
  }
  return counts;
}

beforeAll(async () => {
  // The pool's search_path is another schema: the ledger must qualify every name itself.
  schema = db.newSchema('ledger');
  await seedLedger(db.sql, schema, { preset: 'small', seed: 1 });
  erp = createErp({ kind: 'ledger', sql: db.sql, schema });
  mix = generateMix(await chartSummary(db.sql, schema), { count: COUNT, seed: 11 });
});

describe('a mix of 10,000 objects', () => {
  it('posts every one, in balanced books traceable to platform object ids', async () => {
    const started = performance.now();
    const results = await erp.postMany(mix);
    const seconds = (performance.now() - started) / 1000;
    const perSecond = Math.round(COUNT / seconds);
    console.info(`ledger postMany: ${COUNT} objects in ${seconds.toFixed(2)} s = ${perSecond} objects/s`);
    // Guards against order-of-magnitude regressions only (a per-row scan, a round trip per item):
    // 5,500-12,000/s measured alone, ~2,300/s with every erp test file and other suites running.

    const failures = results.filter((r) => !r.ok);
    expect(failures).toEqual([]);
    expect(results.every((r) => r.ok && !r.replayed)).toBe(true);

    const totals = trialBalanceTotals(await trialBalance(db.sql, schema));
    expect([...totals.values()]).toEqual([0]);

    const [trace] = await db.sql`
      select count(*)::int as entries,
             count(*) filter (where p.id is null or p.kind <> e.source_kind or p.object_id <> e.source_object_id)::int as untraced
        from ${db.sql(`${schema}.journal_entries`)} e
        left join ${db.sql(`${schema}.postings`)} p on p.id = e.id`;
    expect(trace!.untraced).toBe(0);
    expect(trace!.entries).toBe(mix.filter((m) => m.kind !== 'vendor').length);
  });

  it('changes nothing when every object is posted a second time', async () => {
    const before = await rowCounts();
    const first = await new LedgerErp({ sql: db.sql, schema }).lookupMany(
      mix.map((m) => ({ kind: m.kind, objectId: m.objectId })),
    );
    const again = await erp.postMany(mix);
    expect(await rowCounts()).toEqual(before);
    expect(again.every((r) => r.ok && r.replayed)).toBe(true);
    expect(again.map((r) => (r.ok ? r.referenceId : null))).toEqual(
      first.map((r) => (r.found ? r.referenceId : null)),
    );
  });

  it('posts 10,000 more in calls of 100, the sync layer’s page size', async () => {
    const pages = generateMix(await chartSummary(db.sql, schema), {
      count: COUNT,
      seed: 12,
      idPrefix: 'page',
    });
    const started = performance.now();
    const results = [];
    for (let i = 0; i < pages.length; i += 100)
      results.push(...(await erp.postMany(pages.slice(i, i + 100))));
    const seconds = (performance.now() - started) / 1000;
    console.info(`ledger postMany in calls of 100: ${Math.round(COUNT / seconds)} objects/s`);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect([...trialBalanceTotals(await trialBalance(db.sql, schema)).values()]).toEqual([0]);
  });

  it('prints a trial balance whose total is zero', async () => {
    const text = formatTrialBalance(await trialBalance(db.sql, schema));
    expect(text).toContain('Trial balance (USD)');
    expect(text).toContain('2100');
    expect(text).toMatch(/Total USD .* 0\.00$/m);
    expect(text).toContain('The books balance.');
  });
});
