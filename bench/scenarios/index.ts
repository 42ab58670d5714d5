import type { BenchContext } from '../lib/context.ts';
import type { ScenarioResult } from '../lib/result.ts';
import { mixedSyncAll, VARIANTS } from './s1-mixed.ts';
import { BACKLOGS, rateLimitedThroughput } from './s1-throughput.ts';
import { rawPipeline } from './s2-raw-pipeline.ts';
import { syncButtonUnderLoad } from './s3-sync-button.ts';
import { chartOfAccounts } from './s4-chart.ts';
import { memoryAtScale } from './s5-memory.ts';
import { stubScale } from './s6-stub-scale.ts';
import { trytonPosting } from './s7-tryton.ts';

/** Overrides from the command line (run.ts --slices, --read-ahead, --page-concurrency, --memory-objects). */
export interface Tuning {
  slices?: number | undefined;
  readAhead?: number | undefined;
  /** Pages the pipeline writes at once (default: the pipeline's own). */
  pageConcurrency?: number | undefined;
  /** Objects of scenario 5 in a full run. */
  memoryObjects?: number | undefined;
  /** Rows of scenario 1 to run (all when unset): some of SCENARIO_1_ROWS. */
  rows?: ReadonlySet<string> | undefined;
}

/** The rows scenario 1 reports, in order: one per backlog of transactions, then the mixed `sync all`. */
export const SCENARIO_1_ROWS: readonly string[] = [
  ...Object.values(BACKLOGS).map((b) => b.id),
  ...VARIANTS.map((v) => v.id),
];

export interface Scenario {
  id: number;
  title: string;
  /** One result, or several for variants (1 and 1b). */
  run(ctx: BenchContext, tuning: Tuning): Promise<ScenarioResult | ScenarioResult[]>;
}

export const SCENARIOS: Scenario[] = [
  {
    id: 1,
    title: 'Rate-limited throughput',
    // Rows 1, 1b, 1c (transactions), then 1e (every kind side by side).
    run: async (ctx, tuning) => [
      ...(await rateLimitedThroughput(ctx, tuning)),
      ...(await mixedSyncAll(ctx, tuning)),
    ],
  },
  { id: 2, title: 'Raw pipeline', run: rawPipeline },
  { id: 3, title: 'Sync button under load', run: syncButtonUnderLoad },
  { id: 4, title: 'Chart of accounts', run: chartOfAccounts },
  { id: 5, title: 'Memory at scale', run: memoryAtScale },
  { id: 6, title: 'Stub scale', run: stubScale },
  { id: 7, title: 'Posting into Tryton', run: trytonPosting },
];
