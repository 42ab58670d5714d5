/**
 * The benchmark suite: `npm run bench` (full) or `npm run bench -- --quick` (scaled down, under
 * 3 minutes). Each scenario runs the stub as a separate process, the built-in ERP
 * and the worker in a child process, in its own schemas and Redis prefix. Prints a table and
 * writes bench/results/latest.json (a quick run: quick.json, not tracked) and
 * bench/results/<ISO date>.json. A fixed CPU task is timed before the first scenario and after the
 * last (lib/reference-work.ts), so runs on different machines can be compared.
 *   --quick             scaled-down counts (says "quick" in the JSON); targets set for the full
 *                       run's counts read "n/a (quick)" when missed
 *   --only 1,3          run these scenarios only
 *   --rows 1d,1c        of scenario 1, run these rows only (1, 1b, 1c, 1d, 1e, 1e+2w)
 *   --profile           CPU-profile the worker of every scenario (off by default: the profiler
 *                       costs the worker 10-15 % CPU, so measured runs go without)
 *   --keep              keep schemas and Redis keys afterwards
 *   --slices N --read-ahead N   override the tuned values of scenarios 1 and 3
 *   --page-concurrency N  pages the pipeline writes at once (scenarios 1, 2, 3, 5; default: its own)
 *   --memory-objects N  objects of scenario 5 (full run default 1,000,000)
 *   --worker-flags=F    node flags for the worker children, after the product's heap flags (which
 *                       they can override: --worker-flags=--heap-growing-percent=0 runs V8's default)
 */
import { parseArgs } from 'node:util';
import { openBenchServices } from './lib/context.ts';
import { describeMachine, machineLine } from './lib/machine.ts';
import { measureReferenceWork, referenceLine } from './lib/reference-work.ts';
import { type BenchReport, writeReport } from './lib/report.ts';
import { failed, type ScenarioResult, withStalls } from './lib/result.ts';
import { watchMachineStalls } from './lib/stall-watch.ts';
import { missedLines, resultsTable } from './lib/table.ts';
import { SCENARIO_1_ROWS, SCENARIOS } from './scenarios/index.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    rows: { type: 'string' },
    profile: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    slices: { type: 'string' },
    'read-ahead': { type: 'string' },
    'page-concurrency': { type: 'string' },
    'memory-objects': { type: 'string' },
    'worker-flags': { type: 'string' },
  },
  strict: true,
});
const only = values.only ? new Set(values.only.split(',').map((s) => Number(s.trim()))) : null;
const tuning = {
  slices: values.slices === undefined ? undefined : Number(values.slices),
  readAhead: values['read-ahead'] === undefined ? undefined : Number(values['read-ahead']),
  pageConcurrency: values['page-concurrency'] === undefined ? undefined : Number(values['page-concurrency']),
  memoryObjects: values['memory-objects'] === undefined ? undefined : Number(values['memory-objects']),
  rows: values.rows === undefined ? undefined : new Set(values.rows.split(',').map((s) => s.trim())),
};
const unknownRows = [...(tuning.rows ?? [])].filter((row) => !SCENARIO_1_ROWS.includes(row));
if (unknownRows.length > 0) {
  process.stderr.write(
    `bench: --rows: no such row ${unknownRows.join(', ')} (rows: ${SCENARIO_1_ROWS.join(', ')})\n`,
  );
  process.exit(64);
}
// Read by lib/worker-run.ts, which starts every worker child.
if (values['worker-flags']) process.env.BENCH_WORKER_FLAGS = values['worker-flags'];
const machine = describeMachine();
const startedAt = new Date();
const say = (line: string) => process.stderr.write(`bench: ${line}\n`);

say(`${values.quick ? 'quick' : 'full'} run on ${machineLine(machine)}`);
// Timed before any service starts and again after they stop: how fast this machine was (bench/lib/reference-work.ts).
const referenceAtStart = measureReferenceWork();
say(`reference work ${referenceAtStart.ms} ms (lower is faster)`);
const services = await openBenchServices({
  quick: values.quick,
  profileAll: values.profile,
  keep: values.keep,
});
const results: ScenarioResult[] = [];
try {
  for (const scenario of SCENARIOS) {
    if (only && !only.has(scenario.id)) continue;
    say(`scenario ${scenario.id}: ${scenario.title} ...`);
    const t0 = Date.now();
    const stalls = watchMachineStalls();
    let produced: ScenarioResult[];
    try {
      produced = [await scenario.run(services.context, tuning)].flat();
    } catch (error) {
      produced = [failed(String(scenario.id), scenario.title, error, Date.now() - t0)];
    }
    const paused = await stalls.stop();
    for (const r of produced) withStalls(r, paused);
    results.push(...produced);
    for (const r of produced)
      say(`scenario ${r.id}: ${r.verdict} (${Math.round(r.durationMs / 1000)} s) ${r.figures}`);
  }
} finally {
  await services.close();
}
const referenceWork = { atStart: referenceAtStart, atEnd: measureReferenceWork() };

const report: BenchReport = {
  mode: values.quick ? 'quick' : 'full',
  command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  startedAt: startedAt.toISOString(),
  finishedAt: new Date().toISOString(),
  machine,
  referenceWork,
  caveat:
    'Figures are noisy where other work shares the machine: the load average at the start is machine.loadAverageAtStart. ' +
    'The CPU-bound rows depend on how fast the machine is: referenceWork times a fixed CPU task at the start and the end of the run.',
  table: resultsTable(results, values.quick ? 'quick' : 'full'),
  missed: missedLines(results, values.quick ? 'quick' : 'full'),
  scenarios: results,
};
const files = await writeReport(report);
process.stdout.write(`\n${report.table}\n\n`);
for (const line of report.missed) process.stdout.write(`- ${line}\n`);
process.stdout.write(
  `\n${machineLine(machine)}; ${referenceLine(referenceWork)}; ${report.mode} run; written to ${files.join(', ')}\n`,
);
process.exit(results.some((r) => r.verdict === 'error') ? 1 : 0);
