import { type BulkSyncResult, runBulkSync } from '../lib/bulk-sync.ts';
import { minimumRequests } from '../lib/ceiling.ts';
import type { BenchContext } from '../lib/context.ts';
import type { ScenarioResult } from '../lib/result.ts';
import { startWorker } from '../lib/worker-run.ts';
import { createWorld } from '../lib/world.ts';
import type { Tuning } from './index.ts';
import { rowWanted } from './rows.ts';
import { throughputParams } from './s1-params.ts';
import { addJoinerShare, backlogDates, judge, medianIndex, ratioOf, windowLine } from './s1-throughput.ts';

const RUNS = 3;

/** Row 1e's backlog: transactions dated over the last 30 days beside every other kind. */
const MIXED = { transactions: 30_000, reimbursements: 6_000, transfers: 1_000, cashbacks: 500, bills: 3_000 };

export const VARIANTS = [
  { id: '1e', label: 'sync all of a mixed backlog', joiners: 0 },
  { id: '1e+2w', label: 'sync all of a mixed backlog, two more worker processes', joiners: 2 },
] as const;

/**
 * Row 1e: `sync all` (every kind side by side, as the CLI runs it, without the chart) of 30,000
 * transactions, 6,000 reimbursements, 1,000 transfers, 500 cashbacks and 3,000 bills; a tenth of
 * that in a quick run. Judged against the fewest requests of each kind (its pages and its posts)
 * at the rule's average rate; three runs, the median reported; once alone and once with two
 * idle worker processes running the product's joiner.
 */
export async function mixedSyncAll(ctx: BenchContext, tuning: Tuning): Promise<ScenarioResult[]> {
  const base = throughputParams(ctx.quick, tuning);
  const scale = ctx.quick ? 10 : 1;
  const counts = Object.fromEntries(Object.entries(MIXED).map(([k, n]) => [k, n / scale])) as typeof MIXED;
  const objects = Object.values(counts).reduce((a, b) => a + b, 0);
  const fewestRequests = Object.values(counts).reduce((a, n) => a + minimumRequests(n), 0);
  const p = { ...base, objects, fewestRequests };
  const rule = { max: p.rule.rateMax, windowMs: p.rule.rateWindowMs };
  const results: ScenarioResult[] = [];
  for (const variant of VARIANTS) {
    if (!rowWanted(tuning, variant.id)) continue;
    const runs: { run: BulkSyncResult; durationMs: number }[] = [];
    for (let i = 0; i < (ctx.quick ? 1 : RUNS); i++) {
      const started = Date.now();
      const world = await createWorld(ctx, `s${variant.id.replace('+', '-')}-${i + 1}`, { rule: p.rule });
      try {
        await world.seed({
          seed: 7,
          ...counts,
          ready_fraction: 1,
          synced_fraction: 0,
          vendor_creation_fraction: 0,
          dates: { transactions: backlogDates(30) },
        });
        const joiners = Array.from({ length: variant.joiners }, () =>
          startWorker(world.workerConfig({ task: 'join', ...(p.limiter ? { limiter: p.limiter } : {}) })),
        );
        await Promise.all(joiners.map((j) => j.ready));
        const run = await runBulkSync(ctx, world, {
          task: 'all',
          objects,
          ...(p.limiter ? { limiter: p.limiter } : {}),
          label: `${variant.id}-${i + 1}`,
        });
        // A joiner that found nothing to join is stopped at once: it did no part of the run.
        for (const joiner of joiners) await addJoinerShare(run, joiner, world, 0);
        runs.push({ run, durationMs: Date.now() - started });
      } finally {
        await world.close();
      }
    }
    const ratios = runs.map((r) => ratioOf(objects, r.run.wallMs, rule, fewestRequests));
    const median = runs[medianIndex(ratios)]!;
    results.push(
      judge(
        variant.id,
        `Rate-limited throughput, ${variant.label}`,
        p,
        median,
        [
          `${Object.entries(counts)
            .map(([k, n]) => `${n} ${k}`)
            .join(', ')}; transactions dated evenly over the 30 days before the run`,
          `the fewest requests: each kind's pages (100 objects) and posts (5,000 results), ${fewestRequests} in all`,
          `ratios of the ${ratios.length} runs: ${ratios.join(', ')} (median reported)`,
          ...(variant.joiners > 0
            ? [
                `${variant.joiners} more worker processes run the product joiner (jobs/join-runs.ts); a sync of every kind is not offered to join (side-by-side.ts), so they are stopped when it ends`,
              ]
            : []),
        ],
        windowLine(p, median.run),
        ratios,
      ),
    );
  }
  return results;
}
