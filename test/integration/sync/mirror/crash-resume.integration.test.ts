import { describe, expect, it } from 'vitest';
import type { MirrorSummary } from '../../../../src/sync/mirror/index.ts';
import { chartDifferences, type StubChart } from './support/compare.ts';
import { crashingPlatform, SimulatedCrash } from './support/crashing-platform.ts';
import { arrivalMark, arrivalsSince, writes } from './support/effects.ts';
import { type Ledger, useMirrorHarness } from './support/harness.ts';
import { largeLedger as makeLargeLedger } from './support/large-chart.ts';

const h = useMirrorHarness({ rateLimit: false });
const largeLedger = () => makeLargeLedger(h);

/** Runs the mirror, killed at each point in turn, then once more to completion. */
async function runWithKills(
  ledger: Ledger,
  connectionId: string,
  kills: ReadonlyArray<[number, 'before' | 'after']>,
): Promise<{ crashed: number; summaries: MirrorSummary[] }> {
  const summaries: MirrorSummary[] = [];
  let crashed = 0;
  for (const [at, when] of kills) {
    try {
      summaries.push(
        await h.mirror(ledger, connectionId, {}, { platform: crashingPlatform(h.client, at, when) }),
      );
    } catch (error) {
      if (!(error instanceof SimulatedCrash)) throw error;
      crashed++;
    }
  }
  summaries.push(await h.mirror(ledger, connectionId));
  return { crashed, summaries };
}

const failures = (summaries: MirrorSummary[]) =>
  summaries.flatMap((s) => Object.values(s.kinds).flatMap((k) => k.failed));

describe('a 20,000-item mirror', () => {
  it('uploads in batches of 500 and records every item', async () => {
    const ledger = await largeLedger();
    const connectionId = await h.newConnection();
    const mark = await arrivalMark(h);
    const started = performance.now();
    const summary = await h.mirror(ledger, connectionId);
    const elapsed = performance.now() - started;
    const { arrivals } = await arrivalsSince(h, mark);
    expect(failures([summary])).toEqual([]);
    expect(writes(arrivals)).toHaveLength(summary.writeCalls);
    const chart = await h.control<StubChart>('GET', `/__stub/chart?accounting_connection_id=${connectionId}`);
    expect(await chartDifferences(chart, ledger.erp)).toEqual([]);
    const uploads = writes(arrivals).filter((a) => a.method === 'POST').length;
    console.info(
      `[measure] 20,012 items, clean: ${summary.writeCalls} write calls (${uploads} POST), ${elapsed.toFixed(0)} ms`,
    );
  });
});

describe('killed at random points during a 20,000-item mirror, then re-run (docs/platform.md F12)', () => {
  it('ends identical to the ERP, with no duplicates and no 7020 surfacing', async () => {
    const ledger = await largeLedger();
    const connectionId = await h.newConnection();
    const mark = await arrivalMark(h);
    const started = performance.now();
    // 'after' = the upload (or PATCH) was applied, the process died before id_map was written.
    const kills: Array<[number, 'before' | 'after']> = [
      [3, 'after'],
      [1, 'after'],
      [4, 'before'],
      [9, 'after'],
      [2, 'after'],
      [14, 'after'],
      [6, 'before'],
      [25, 'after'],
      [40, 'after'],
      [70, 'after'],
      [5, 'after'],
      [50, 'after'],
      [30, 'before'],
      [45, 'after'],
      [8, 'after'],
    ];
    const { crashed, summaries } = await runWithKills(ledger, connectionId, kills);
    const elapsed = performance.now() - started;

    const chart = await h.control<StubChart>('GET', `/__stub/chart?accounting_connection_id=${connectionId}`);
    expect(await chartDifferences(chart, ledger.erp)).toEqual([]);
    expect(failures(summaries)).toEqual([]);
    // The last kills may come after the work left: those runs simply complete.
    expect(crashed).toBeGreaterThanOrEqual(kills.length - 2);
    const { arrivals } = await arrivalsSince(h, mark);
    // The 7020s met after "after" kills were resolved by adoption, never shown to the user.
    const duplicates = arrivals.filter((a) => a.status === 400).length;
    expect(duplicates).toBeGreaterThan(0);
    console.info(
      `[measure] 20,012 items, ${crashed} kills: ${writes(arrivals).length} write calls, ` +
        `${arrivals.length} calls in all, ${duplicates} answered 7020, ${elapsed.toFixed(0)} ms`,
    );

    const quiet = await h.mirror(ledger, connectionId);
    expect(quiet.writeCalls).toBe(0);
  });
});

describe('killed while PATCHing and DELETEing (docs/platform.md G17)', () => {
  it('converges after re-runs, repeating at most the call in flight at each kill', async () => {
    const ledger = await largeLedger();
    const connectionId = await h.newConnection();
    await h.mirror(ledger, connectionId);
    const t = (name: string) => h.db.sql(`${ledger.schema}.${name}`);
    const sql = h.db.sql;
    // 1,000 renames, 500 deactivations, 400 hides, and items coming back.
    await sql`update ${t('vendors')} set name = name || ' (renamed)' where id < 'ven-01000'`;
    await sql`update ${t('accounts')} set active = not active where id between 'gl-02000' and 'gl-02499'`;
    await sql`update ${t('field_options')} set hidden = not hidden where field_id = 'project' and id < 'project-00400'`;
    const planned = await h.mirror(ledger, connectionId, { dryRun: true });
    const plannedCalls = Object.values(planned.kinds).reduce(
      (n, k) => n + k.updated + k.deactivated + k.reactivated + k.hidden + k.unhidden,
      0,
    );

    const mark = await arrivalMark(h);
    const kills: Array<[number, 'before' | 'after']> = [
      [5, 'after'],
      [17, 'after'],
      [3, 'before'],
      [40, 'after'],
      [100, 'after'],
      [9, 'after'],
      [250, 'before'],
    ];
    const { crashed, summaries } = await runWithKills(ledger, connectionId, kills);
    const { arrivals } = await arrivalsSince(h, mark);

    const chart = await h.control<StubChart>('GET', `/__stub/chart?accounting_connection_id=${connectionId}`);
    expect(await chartDifferences(chart, ledger.erp)).toEqual([]);
    expect(failures(summaries)).toEqual([]);
    expect(crashed).toBe(kills.length);
    // A kill after a call repeats that call on the next run; four calls in flight may each repeat.
    expect(writes(arrivals).length).toBeLessThanOrEqual(plannedCalls + 4 * kills.length);
    expect(writes(arrivals).length).toBeGreaterThanOrEqual(plannedCalls);
  });
});
