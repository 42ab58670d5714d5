import { z } from 'zod';
import { DEFAULT_TRYTON_CONCURRENCY } from '../../src/erp/index.ts';
import { cloneTestDatabase, dropTestDatabase } from '../../test/support/tryton/databases.ts';
import { readTrytonBooks, type TrytonBooks } from '../../test/support/tryton/fixture.ts';
import { ensureTrytonInstalled } from '../../test/support/tryton/install.ts';
import { ensureTrytonServer } from '../../test/support/tryton/server.ts';
import { type BulkSyncResult, readyTransactions, round, runBulkSync } from '../lib/bulk-sync.ts';
import type { BenchContext } from '../lib/context.ts';
import { percentile } from '../lib/percentile.ts';
import { treeCpuSeconds } from '../lib/process-cpu.ts';
import { check, notRun, type ScenarioResult, verdictOf } from '../lib/result.ts';
import { startTrytonWorkers } from '../lib/tryton-workers.ts';
import { createWorld } from '../lib/world.ts';
import type { Tuning } from './index.ts';
import { UNLIMITED } from './s2-raw-pipeline.ts';

const ID = 7;
const TITLE = 'Posting into Tryton';
const TARGET_OBJECTS_PER_SECOND = 30;
/** The worker's CPU at most this share of Tryton's: the cost of a sync is Tryton's, not ours. */
const TARGET_CPU_SHARE = 0.1;
const RUNS = 3;
const TARGETS = ['objects/s', 'worker CPU / Tryton CPU'];

const CompanyParty = z.object({ party: z.number().int() });
const Identifier = z.object({ code: z.string() });

interface Run {
  sync: BulkSyncResult;
  trytonCpuSeconds: number;
  /** Failures by category and code: the seed's refusals by design, never a conflict. */
  failures: Record<string, { n: number; sample: string }>;
}

const median = (values: number[]) => percentile(values, 50);

/** Opens the platform's USD entities in the test company, as the e2e tests' world does. */
async function openEntities(
  books: TrytonBooks,
  entities: readonly { id: string; currency: string | null }[],
) {
  const [company] = await books.models.searchRead('company.company', [], ['party'], CompanyParty);
  const held = await books.models.searchRead(
    'party.identifier',
    [['party', '=', company!.party]],
    ['code'],
    Identifier,
  );
  const codes = entities
    .filter((e) => e.currency === 'USD' && !held.some((h) => h.code === e.id))
    .map((e) => e.id);
  if (codes.length === 0) return;
  await books.models.write('party.party', [company!.party], {
    identifiers: [['create', codes.map((code) => ({ code }))]],
  });
}

/**
 * `sync transactions` of 2,000 card transactions into Tryton (the test books, a trytond of the
 * benchmark's own with BENCH_TRYTON_WORKERS processes, default 2), the stub without a rate limit,
 * three times on fresh objects: the median objects/s, and the worker's CPU against Tryton's.
 * BENCH_TRYTON_CONCURRENCY sets the adapter's calls in flight, BENCH_TRYTON_BATCH its records per
 * create call (default: the adapter's, for both).
 */
export async function trytonPosting(ctx: BenchContext, _tuning: Tuning): Promise<ScenarioResult> {
  const started = Date.now();
  const installed = await ensureTrytonInstalled();
  if (!installed.ok)
    return notRun(String(ID), TITLE, `skipped: Tryton is not installed (${installed.reason})`, TARGETS);
  const objects = ctx.quick ? 500 : 2_000;
  const workers = Number(process.env.BENCH_TRYTON_WORKERS ?? 2);
  const concurrency = Number(process.env.BENCH_TRYTON_CONCURRENCY ?? DEFAULT_TRYTON_CONCURRENCY);
  const batchSize = process.env.BENCH_TRYTON_BATCH ? Number(process.env.BENCH_TRYTON_BATCH) : undefined;
  const database = `bench_tryton_${ctx.runId}`;
  // The shared trytond sets up the test books' template (once); the run has a trytond of its own.
  await cloneTestDatabase(ctx.databaseUrl, await ensureTrytonServer(ctx.databaseUrl), database);
  const server = await startTrytonWorkers(ctx.databaseUrl, workers);
  const runs: Run[] = [];
  try {
    const connection = { url: server.url, database, user: 'admin', password: 'ledgersync-tryton-admin' };
    const books = await readTrytonBooks(connection);
    for (let i = 0; i < RUNS; i++) {
      const world = await createWorld(ctx, `s7r${i}`, {
        rule: { rateMax: 0, rateWindowMs: 10_000, latencyMs: 0 },
        ledger: false,
        erp: {
          tryton: { kind: 'tryton', ...connection, concurrency, ...(batchSize ? { batchSize } : {}) },
          chart: async () => ({
            gl_accounts: ['6020', '6040', '6060', '6080'].map(books.accountId),
            vendors: books.supplierIds,
            tax_codes: Object.values(books.taxIds),
            fields: [{ id: books.department.id, options: books.department.options }],
          }),
          openEntities: (entities) => openEntities(books, entities),
        },
      });
      try {
        // A new seed each run: fresh object ids, so every run posts (none replays).
        await world.seed(readyTransactions(objects, { seed: 70 + i, entities: 1 }));
        const before = treeCpuSeconds(server.pid) ?? 0;
        const sync = await runBulkSync(ctx, world, { objects, limiter: UNLIMITED, label: `s7-${i}` });
        const trytonCpuSeconds = (treeCpuSeconds(server.pid) ?? 0) - before;
        const rows = await ctx.admin.unsafe(
          `select error_category as category, count(*)::int as n, min(error_message) as sample
             from "${world.schema}".sync_ledger where outcome = 'failure' group by 1`,
        );
        const failures = Object.fromEntries(
          rows.map((r) => [r.category as string, { n: r.n, sample: r.sample }]),
        );
        runs.push({ sync, trytonCpuSeconds, failures });
      } finally {
        await world.close();
      }
    }
  } finally {
    await server.stop();
    if (!ctx.keep) await dropTestDatabase(ctx.databaseUrl, database);
  }
  const perSecond = round(median(runs.map((r) => r.sync.objectsPerSecond)), 1);
  const share = round(median(runs.map((r) => r.sync.cpuSeconds / r.trytonCpuSeconds)), 3);
  const trytonMsPerObject = round(
    median(runs.map((r) => (1000 * r.trytonCpuSeconds) / Math.max(1, r.sync.summary.posted))),
    1,
  );
  const targets = [
    check(
      'objects/s',
      `>= ${TARGET_OBJECTS_PER_SECOND}`,
      String(perSecond),
      perSecond >= TARGET_OBJECTS_PER_SECOND,
    ),
    check('worker CPU / Tryton CPU', `<= ${TARGET_CPU_SHARE}`, String(share), share <= TARGET_CPU_SHARE),
  ];
  const failed = runs.reduce((n, r) => n + r.sync.summary.failed, 0);
  return {
    id: String(ID),
    title: TITLE,
    verdict: verdictOf(targets),
    figures: `${objects} objects × ${RUNS}: median ${perSecond}/s; Tryton ${trytonMsPerObject} ms CPU per object; worker CPU ${round(share * 100, 1)} % of Tryton's`,
    targets,
    metrics: {
      runs: runs.map((r) => ({
        read: r.sync.summary.read,
        posted: r.sync.summary.posted,
        failed: r.sync.summary.failed,
        wallSeconds: round(r.sync.wallMs / 1000, 2),
        objectsPerSecond: round(r.sync.objectsPerSecond, 1),
        workerCpuSeconds: round(r.sync.cpuSeconds, 2),
        trytonCpuSeconds: round(r.trytonCpuSeconds, 2),
        failures: r.failures,
        postgresCpuSeconds: r.sync.postgresCpuSeconds,
        time: r.sync.meter,
      })),
      objectsPerSecond: perSecond,
      workerCpuShareOfTryton: share,
      trytonCpuMsPerObject: trytonMsPerObject,
    },
    settings: { objects, runs: RUNS, trytondWorkers: workers, concurrency, rateLimit: 'off', latencyMs: 0 },
    notes: [
      `trytond 6.0 as ${workers} worker processes (bench/lib/trytond-workers.py), the adapter at ${concurrency} call(s) in flight`,
      ...(failed > 0 ? [`${failed} objects failed over the runs (see metrics)`] : []),
    ],
    ...(verdictOf(targets) === 'missed'
      ? { bottleneck: `Tryton's CPU: ${trytonMsPerObject} ms per object posted` }
      : {}),
    durationMs: Date.now() - started,
  };
}
