import { cpus } from 'node:os';
import type { BulkSyncResult } from '../lib/bulk-sync.ts';
import { round } from '../lib/bulk-sync.ts';

const seconds = (ms: number) => `${round(ms / 1000, 1)} s`;
const share = (part: number, whole: number) => `${Math.round((part / whole) * 100)}%`;

/**
 * Where a bulk sync's time went, as lines for the JSON notes: the worker's CPU share of the wall
 * time, the ERP's write time, page reads and result posts as the pipeline saw them, the largest
 * SQL statements of the pipeline, the limiter's wait, and the CPU profile's biggest areas.
 */
export function describeTime(run: BulkSyncResult): string[] {
  const wall = run.wallMs;
  const m = run.meter;
  const get = (label: string) => m[label]?.totalMs ?? 0;
  const lines: string[] = [];
  const erp = get('erp.postMany');
  const pages = get('platform.page');
  const posts = get('platform.postSyncs');
  lines.push(
    `worker wall ${seconds(wall)}, worker CPU ${round(run.cpuSeconds, 1)} s (${share(run.cpuSeconds * 1000, wall)} of one core)` +
      `${run.stubCpuSeconds !== null ? `, stub CPU ${round(run.stubCpuSeconds, 1)} s` : ''}` +
      `${run.postgresCpuSeconds !== null ? `, PostgreSQL CPU ${round(run.postgresCpuSeconds, 1)} s` : ''}; ` +
      `ERP postMany ${seconds(erp)} in ${m['erp.postMany']?.count ?? 0} calls (${share(erp, wall)} of wall, serial in the pipeline)`,
  );
  const pipelineSql = Object.entries(m)
    .filter(([label]) => label.startsWith('sql '))
    .sort((a, b) => b[1].totalMs - a[1].totalMs)
    .slice(0, 5)
    .map(([label, e]) => `${label} ${seconds(e.totalMs)}/${e.count}`);
  if (pipelineSql.length > 0) lines.push(`SQL outside the ERP (total/calls): ${pipelineSql.join('; ')}`);
  const limiter = run.limiter as {
    limiter?: { totalWaitMs?: number; permitsGranted?: number; rateLimited?: number };
  };
  lines.push(
    `page reads ${seconds(pages)} summed over ${m['platform.page']?.count ?? 0} reads (overlapping, read ahead); ` +
      `result posts ${seconds(posts)} in ${m['platform.postSyncs']?.count ?? 0}; ` +
      `limiter wait ${seconds(limiter.limiter?.totalWaitMs ?? 0)} over ${limiter.limiter?.permitsGranted ?? 0} permits`,
  );
  if (run.profile) {
    const areas = Object.entries(run.profile.areas)
      .filter(([area]) => area !== '(idle)')
      .slice(0, 6)
      .map(([area, ms]) => `${area} ${seconds(ms)}`);
    lines.push(`CPU profile (self time): ${areas.join('; ')}`);
    lines.push(
      `hottest functions: ${run.profile.top
        .slice(0, 5)
        .map((f) => `${f.fn} ${seconds(f.ms)}`)
        .join('; ')}`,
    );
  }
  return lines;
}

/** The pipeline's steps, by the first words of their statements (src/sync/sync-ledger, src/sync/outbox, src/sync/objects). */
const STEPS: [string, string][] = [
  ['ERP postMany', 'erp.postMany'],
  ['claim (insert into sync_ledger)', 'sql insert into sync_ledger'],
  ['record outcomes (update sync_ledger … unnest)', 'sql update sync_ledger as l'],
  ['waiting count (select count(*) from sync_ledger)', 'sql select count(*)::int as n from sync_ledger'],
  ['frozen batches list', 'sql select id, sync_type, sync_request_id, body'],
];

/**
 * One line naming where a page's time goes (per 100-object page), how many pages overlapped,
 * how much of the machine's CPU the run used and by whom, and the result acknowledgements that
 * run beside the pages.
 */
export function pipelineBottleneck(run: BulkSyncResult): string {
  const m = run.meter;
  const pages = m['erp.postMany']?.count ?? 0;
  if (pages === 0) return 'no page reached the ERP';
  const total = (prefix: string) =>
    Object.entries(m)
      .filter(([label]) => label.startsWith(prefix))
      .reduce((sum, [, e]) => sum + e.totalMs, 0);
  const steps = STEPS.map(([name, prefix]) => [name, total(prefix) / pages] as const).filter(
    ([, ms]) => ms >= 0.5,
  );
  const perPage = steps.reduce((sum, [, ms]) => sum + ms, 0);
  const wallPerPage = run.wallMs / pages;
  const cores = cpus().length;
  const wallSeconds = run.wallMs / 1000;
  const used = run.cpuSeconds + (run.stubCpuSeconds ?? 0) + (run.postgresCpuSeconds ?? 0);
  const share = used / (wallSeconds * cores);
  const ack = m['sql begin ackBatch'];
  const ledger = run.tableStats.find((t) => t.relname === 'sync_ledger');
  const cpu =
    `CPU in the run: PostgreSQL ${round(run.postgresCpuSeconds ?? 0, 1)} s, worker ${round(run.cpuSeconds, 1)} s, ` +
    `stub ${round(run.stubCpuSeconds ?? 0, 1)} s = ${Math.round(share * 100)}% of ${cores} cores over ${round(wallSeconds, 1)} s` +
    (share >= 0.8
      ? ' (the machine is CPU-bound, PostgreSQL first)'
      : ' (other processes on the machine not counted)');
  return (
    `${round(wallPerPage, 1)} ms of wall per 100-object page (${round(100_000 / wallPerPage)} objects/s) with ` +
    `${round(perPage / wallPerPage, 1)} pages in flight on average; each page waits ${round(perPage)} ms on its ` +
    `round trips (${steps.map(([name, ms]) => `${name} ${round(ms, 1)} ms`).join(', ')}); ${cpu}` +
    `${ack ? `; beside the pages, result acks (ackBatch: an UPDATE of sync_ledger by batch_id) took ${round(ack.totalMs / 1000, 1)} s in ${ack.count} (max ${round(ack.maxMs / 1000, 1)} s)` : ''}` +
    `${ledger ? `; sync_ledger after the run: ${String(ledger.seq_scan)} sequential scans, autoanalyze ${String(ledger.autoanalyze_count)} times` : ''}`
  );
}

/**
 * How fast the host was during one run, measured inside it. The stub's work per request is the
 * same in every run of a row (the same pages of the same objects), so its CPU per request moves
 * only with the machine: a busy or slow host makes it, and everything else, dearer. Objects/s
 * times that figure is the pipeline's cost in the host's own units, comparable between runs made
 * hours apart; `neededMs` is the stub's CPU per request at which this run's pipeline would have
 * reached `targetPerSecond`. Null when the stub's CPU was not read.
 */
export function hostYardstick(
  run: BulkSyncResult,
  targetPerSecond: number,
): { stubCpuMsPerRequest: number; rateTimesStubMs: number; neededMs: number } | null {
  if (run.stubCpuSeconds === null || run.arrivals.requests === 0) return null;
  const stubCpuMsPerRequest = (run.stubCpuSeconds * 1000) / run.arrivals.requests;
  const rateTimesStubMs = run.objectsPerSecond * stubCpuMsPerRequest;
  return {
    stubCpuMsPerRequest: round(stubCpuMsPerRequest, 2),
    rateTimesStubMs: Math.round(rateTimesStubMs),
    neededMs: round(rateTimesStubMs / targetPerSecond, 2),
  };
}

/** The yardstick as a sentence for a row's notes or its missed-target line. */
export function describeYardstick(
  yardstick: NonNullable<ReturnType<typeof hostYardstick>>,
  targetPerSecond: number,
): string {
  return (
    `the host during the run: the stub (the same work per request in every run) used ` +
    `${yardstick.stubCpuMsPerRequest} ms of CPU per request; objects/s × that = ${yardstick.rateTimesStubMs}, ` +
    `so ${targetPerSecond} objects/s needs a host on which the stub takes at most ${yardstick.neededMs} ms`
  );
}
