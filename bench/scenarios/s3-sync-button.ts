import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_CLIENT } from '@ledgersync/stub';
import { createPlatformClient } from '../../src/platform/index.ts';
import { KIND_SPECS } from '../../src/sync/objects/index.ts';
import { type BulkSyncResult, readyTransactions, round, runBulkSync } from '../lib/bulk-sync.ts';
import { type ButtonResponder, type RunTimes, startButtonResponder } from '../lib/button-responder.ts';
import { fastestTimeMs, minimumRequests } from '../lib/ceiling.ts';
import type { BenchContext } from '../lib/context.ts';
import { type Mark, marksSince, type PressOutcome, pressOutcome } from '../lib/marks.ts';
import { percentile } from '../lib/percentile.ts';
import { check, type ScenarioResult, verdictOf } from '../lib/result.ts';
import { BENCH_SCOPES } from '../lib/worker-deps.ts';
import { createWorld, type World } from '../lib/world.ts';
import type { Tuning } from './index.ts';
import { type ThroughputParams, throughputParams } from './s1-params.ts';
import { backlogDates } from './s1-throughput.ts';

const TITLE = 'Sync button under load';
const TARGET_P99_MS = 2000;
const ROWS_PER_PRESS = 25;

interface Press {
  syncRequestId: string;
  objectIds: string[];
  pressedAt: number;
}

/**
 * 1,000 sync-button rows (reimbursements, so the bulk transaction sync cannot take them first)
 * requested in presses of 25 spread over a scenario-1 run that saturates the rate budget.
 * Latency per press: from its webhook's arrival at the responder to the last of its rows posted
 * (the stub's sync marks).
 */
export async function syncButtonUnderLoad(ctx: BenchContext, tuning: Tuning): Promise<ScenarioResult> {
  const started = Date.now();
  const p = throughputParams(ctx.quick, tuning);
  const rows = ctx.quick ? 200 : 1000;
  const world = await createWorld(ctx, 's3', {
    rule: p.rule,
    settings: { reimbursement_sync_button_enabled: true },
  });
  let responder: ButtonResponder | undefined;
  try {
    await world.seed(
      readyTransactions(p.objects, { reimbursements: rows, dates: { transactions: backlogDates(30) } }),
    );
    const ids = await readyReimbursementIds(ctx, world);
    responder = await startButtonResponder(ctx, world, p.limiter);
    const presses: Press[] = [];
    const count = Math.ceil(ids.length / ROWS_PER_PRESS);
    const rule = { max: p.rule.rateMax, windowMs: p.rule.rateWindowMs };
    const every = fastestTimeMs(minimumRequests(p.objects), rule) / count;
    const bulk = await runBulkSync(ctx, world, {
      objects: p.objects,
      slices: p.slices,
      readAhead: p.readAhead,
      pageConcurrency: p.pageConcurrency,
      ...(p.limiter ? { limiter: p.limiter } : {}),
      redisPrefix: responder.platformPrefix,
      label: 's3-bulk',
      whileRunning: async () => {
        for (let i = 0; i < count; i++) {
          await sleep(every);
          presses.push(await press(world, ids.slice(i * ROWS_PER_PRESS, (i + 1) * ROWS_PER_PRESS)));
        }
      },
    });
    const marks = await waitForResults(world, presses, ctx.quick ? 30_000 : 90_000);
    const arrivals = await responder.arrivals();
    const runs = await responder.runs(presses.map((pr) => pr.syncRequestId));
    await responder.stop();
    const diagnostics = await responder.diagnostics();
    const outcomes = presses.map((pr) => pressOutcome(pr, arrivals.get(pr.syncRequestId) ?? null, marks));
    return judge(p, rows, presses, outcomes, runs, bulk, responder, diagnostics, Date.now() - started);
  } finally {
    await responder?.stop().catch(() => undefined);
    await world.close();
  }
}

async function readyReimbursementIds(ctx: BenchContext, world: World): Promise<string[]> {
  const client = createPlatformClient({
    baseUrl: world.stub.apiUrl,
    clientId: DEFAULT_CLIENT.client_id,
    clientSecret: DEFAULT_CLIENT.client_secret,
    scopes: BENCH_SCOPES,
    redis: ctx.redisUrl,
    keyPrefix: `${world.redisPrefix}:setup-ids`,
    limiter: { max: 1_000_000, margin: 0, windowPadMs: 0 },
  });
  try {
    const listed = await client.objects.ready(KIND_SPECS.reimbursements.list).collect();
    return listed.values.map((r) => r.id);
  } finally {
    await client.close();
  }
}

async function press(world: World, objectIds: string[]): Promise<Press> {
  const pressedAt = Date.now();
  const answer = await world.stub.control<{ sync_request_id: string; object_ids: string[] }>(
    'POST',
    '/__stub/sync-button',
    { object_type: 'REIMBURSEMENT', object_ids: objectIds },
  );
  return { syncRequestId: answer.sync_request_id, objectIds: answer.object_ids, pressedAt };
}

/** Waits until every pressed row has a result (or the time is up); returns the marks. */
async function waitForResults(world: World, presses: Press[], timeoutMs: number): Promise<Mark[]> {
  const wanted = new Set(presses.flatMap((p) => p.objectIds));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const marks = await marksSince(world.stub, 0);
    const resolved = new Set(
      marks.filter((m) => m.result === 'SYNCED' || m.result === 'FAILED').map((m) => m.object_id),
    );
    if ([...wanted].every((id) => resolved.has(id)) || Date.now() > deadline) return marks;
    await sleep(250);
  }
}

function judge(
  p: ThroughputParams,
  rows: number,
  presses: Press[],
  outcomes: PressOutcome[],
  runs: Map<string, RunTimes>,
  bulk: BulkSyncResult,
  responder: ButtonResponder,
  diagnostics: Record<string, unknown>,
  durationMs: number,
): ScenarioResult {
  const latencies = outcomes.map((o) =>
    o.arrivedAt !== null && o.lastResultAt !== null ? o.lastResultAt - o.arrivedAt : Number.POSITIVE_INFINITY,
  );
  const incomplete = outcomes.filter((o) => o.lastResultAt === null).length;
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const rowLatencies = outcomes.flatMap((o) => o.rowLatencies);
  const webhookDelays = presses.flatMap((pr, i) => {
    const arrived = outcomes[i]?.arrivedAt;
    return arrived === null || arrived === undefined ? [] : [arrived - pr.pressedAt];
  });
  const queueWait = outcomes.flatMap((o) => {
    const started = runs.get(o.syncRequestId)?.startedAt;
    return o.arrivedAt !== null && started ? [started - o.arrivedAt] : [];
  });
  const runTimes = [...runs.values()].flatMap((r) =>
    r.startedAt && r.finishedAt ? [r.finishedAt - r.startedAt] : [],
  );
  const runOutcomes = [...runs.values()].reduce<Record<string, number>>((acc, r) => {
    const key = r.outcome ?? 'not run';
    acc[key] = (acc[key] ?? 0) + 1;
    return acc;
  }, {});
  const targets = [
    check('p99 webhook→last result', `<= ${TARGET_P99_MS / 1000} s`, fmt(p99), p99 <= TARGET_P99_MS),
  ];
  const verdict = verdictOf(targets);
  const buttonRequests = Object.entries(bulk.arrivals.byRoute)
    .filter(([route]) => !route.includes('/transactions') && route !== 'POST /token')
    .reduce((n, [, c]) => n + c, 0);
  const notes = [
    `responder: ${responder.description}`,
    `bulk load: scenario 1's product sync (its backlog of the last 30 days), so that the rate budget is saturated: ${bulk.summary.read} objects in ${round(bulk.wallMs / 1000, 1)} s (${round(bulk.objectsPerSecond)}/s); ${bulk.arrivals.requests} requests in all, ${bulk.arrivals.rateLimited} answered 429`,
    `button requests (reimbursement reads, connection reads, result posts beyond the bulk's): about ${buttonRequests}`,
  ];
  if (responder.kind === 'product')
    notes.push(
      `per press: webhook → job start p50 ${fmt(percentile(queueWait, 50))}, p99 ${fmt(percentile(queueWait, 99))}; ` +
        `job run p50 ${fmt(percentile(runTimes, 50))}, p99 ${fmt(percentile(runTimes, 99))}; most runs at once ${String(diagnostics.mostRunsAtOnce)}; ` +
        `outcomes ${JSON.stringify(runOutcomes)}`,
    );
  if (p.scale !== 'full')
    notes.push(
      "quick: the rule's window is 1 s, so waits for the rate budget are 10x shorter than in the full run; judge the full run",
    );
  const bottleneck =
    verdict === 'missed'
      ? `p99 ${fmt(p99)}${incomplete ? ` (${incomplete} presses never fully answered)` : ''}: ` +
        (queueWait.length > 0
          ? `presses waited p50 ${fmt(percentile(queueWait, 50))} / p99 ${fmt(percentile(queueWait, 99))} from webhook to job start (at most ${String(diagnostics.mostRunsAtOnce)} runs at once), runs took p50 ${fmt(percentile(runTimes, 50))} / p99 ${fmt(percentile(runTimes, 99))}; `
          : '') +
        "every call of a run takes a permit from the budget the bulk sync saturates (in the priority lane, ahead of the bulk sync's calls), and a row attributed to a request whose run already ended waits for that request's watchdog"
      : undefined;
  return {
    id: '3',
    title: TITLE,
    verdict,
    figures: `${rows} rows in ${presses.length} presses of ${ROWS_PER_PRESS}: p50 ${fmt(p50)}, p99 ${fmt(p99)}${incomplete ? `, ${incomplete} presses incomplete` : ''} (${responder.kind} responder)`,
    targets,
    metrics: {
      presses: presses.length,
      rows,
      incompletePresses: incomplete,
      p50Ms: finite(p50),
      p99Ms: finite(p99),
      maxMs: finite(percentile(latencies, 100)),
      rowLatencyMs: {
        p50: finite(percentile(rowLatencies, 50)),
        p99: finite(percentile(rowLatencies, 99)),
      },
      webhookDelayMs: {
        p50: finite(percentile(webhookDelays, 50)),
        max: finite(percentile(webhookDelays, 100)),
      },
      webhookToRunStartMs: { p50: finite(percentile(queueWait, 50)), p99: finite(percentile(queueWait, 99)) },
      runMs: { p50: finite(percentile(runTimes, 50)), p99: finite(percentile(runTimes, 99)) },
      runOutcomes,
      bulkObjectsPerSecond: round(bulk.objectsPerSecond),
      requestsAll: bulk.arrivals.requests,
      requestsByRoute: bulk.arrivals.byRoute,
      rateLimited: bulk.arrivals.rateLimited,
      responder: { kind: responder.kind, ...diagnostics },
      pressLatencies: outcomes.map((o) =>
        o.arrivedAt !== null && o.lastResultAt !== null ? o.lastResultAt - o.arrivedAt : null,
      ),
    },
    settings: {
      objects: p.objects,
      scale: p.scale,
      rows,
      rowsPerPress: ROWS_PER_PRESS,
      pressEveryMs: Math.round(
        fastestTimeMs(minimumRequests(p.objects), { max: p.rule.rateMax, windowMs: p.rule.rateWindowMs }) /
          presses.length,
      ),
      rateLimit: `${p.rule.rateMax} per ${p.rule.rateWindowMs} ms`,
      latencyMs: p.rule.latencyMs,
      bulkSlices: p.slices,
      bulkReadAhead: p.readAhead,
      responder: responder.kind,
    },
    notes,
    ...(bottleneck ? { bottleneck } : {}),
    durationMs,
  };
}

function fmt(ms: number): string {
  return Number.isFinite(ms) ? `${round(ms / 1000, 2)} s` : 'never';
}

function finite(ms: number): number | null {
  return Number.isFinite(ms) ? Math.round(ms) : null;
}
