import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Sql } from 'postgres';
import { classifyRedisError, redisCause } from '../infra/index.ts';
import { type GrantStanding, grantStanding } from '../platform/index.ts';
import { OBJECT_KINDS } from '../sync/objects/index.ts';
import { nextScheduledRuns } from './next-runs.ts';
import { countStalled, type QueueDepth, readQueueDepth } from './queue-snapshot.ts';
import { spanOf } from './span.ts';
import { subscriptionCheckFindings, withSubscriptionFindings } from './subscription-check.ts';
import { type HeardBeat, type Heartbeat, readHeartbeats } from './worker-heartbeat.ts';

/**
 * Where the health of the worker is read: its queues, and through their connection the
 * heartbeats under the same prefix (QUEUE_PREFIX).
 */
export interface HealthSources {
  queues: Queue[];
  /** Redis reads give up after this long (the rest of the report is shown all the same). */
  timeoutMs?: number;
  /** PLATFORM_GRANT=authorization_code: the client whose consent is judged too. */
  grantClientId?: string;
}

export interface WorkerSeen extends Heartbeat {
  /** Seconds since its last heartbeat, by Redis's clock. */
  ageSeconds: number;
  /**
   * Its own clock minus Redis's, in seconds (negative: behind); null when its beat carries no
   * stamp. Sync-button deadlines never use it (they use the database's clock), but its delayed
   * jobs and log times do.
   */
  clockSkewSeconds: number | null;
}

/** A worker clock further than this from Redis's is a finding (a host whose time sync is off). */
export const CLOCK_SKEW_WARN_SECONDS = 5;

type QueueHealth = QueueDepth & {
  /** Active jobs whose lock lapsed: the worker running them is gone. */
  stalled: number;
};

/** When a kind (`coa`: the chart mirror) last ran well, and when its schedule runs it next. */
interface KindTiming {
  kind: string;
  /** The last run that finished without failing outright (not all of its objects failed). */
  lastGoodRun: { finishedAt: string; ageSeconds: number; trigger: string } | null;
  /** From the schedules a running worker runs; null when none runs them. */
  nextScheduledRun: { at: string; inSeconds: number } | null;
}

export type HealthState = 'ok' | 'attention' | 'problem';

export interface Health {
  /** ok: nothing to do; attention: look when convenient; problem: syncs are not happening. */
  state: HealthState;
  /** What the banner says, worst first; one sentence each. */
  findings: string[];
  workers: WorkerSeen[];
  /** Jobs by queue and state; null when Redis could not be read (redisError says why). */
  queues: QueueHealth[] | null;
  redisError: string | null;
  failedJobs: number;
  stalledJobs: number;
  kinds: KindTiming[];
}

/** The latest run of a kind, as the report's kinds show it (status-report.ts). */
export interface LatestRun {
  kind: string;
  lastRun: { status: string; outcome: string } | null;
}

const TIMING_KINDS = [...OBJECT_KINDS, 'coa'] as const;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function readRedisSide(
  sources: HealthSources,
): Promise<{ heartbeats: HeardBeat[]; queues: QueueHealth[] }> {
  const [first] = sources.queues;
  // The backend's client is the queues' ioredis connection behind BullMQ's proxy, which passes
  // commands it does not wrap (TIME) through to it.
  const client = first
    ? ((await first.getBackend().client) as unknown as Pick<Redis, 'hgetall' | 'time'>)
    : null;
  const heartbeats = first && client ? await readHeartbeats(client, first.opts.prefix ?? 'bull') : [];
  const queues = await Promise.all(
    sources.queues.map(async (queue) => ({
      ...(await readQueueDepth(queue)),
      stalled: await countStalled(queue),
    })),
  );
  return { heartbeats, queues };
}

/**
 * The last good run of each kind that has one (`coa`: the chart mirror); the worker reads it too,
 * to enqueue at start what is overdue (jobs/overdue-runs.ts).
 */
export async function lastGoodRuns(sql: Sql, connectionId: string) {
  // Busy runs did nothing; a run whose every object failed did not go well (runOutcome).
  return sql<{ kind: string; finishedAt: Date; trigger: string }[]>`
    select distinct on (kind) kind, finished_at as "finishedAt", trigger from runs
    where connection_id = ${connectionId} and status = 'succeeded' and finished_at is not null
      and coalesce(counts->>'busy', 'false') <> 'true'
      and not (coalesce((counts->>'failed')::int, 0) > 0 and coalesce((counts->>'posted')::int, 0) = 0)
    order by kind, finished_at desc`;
}

const seconds = (ms: number) => Math.round(ms / 1000);

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A kind whose latest run stopped with an error, or in which every object failed. */
function failedRunLine(kind: string, run: { status: string; outcome: string }): string | null {
  if (run.status === 'failed') return `${kind}: the last run stopped with an error (see the worker's log).`;
  const all = /^failed: all (\d+) objects failed$/.exec(run.outcome);
  if (all) return `${kind}: all ${all[1]} objects of the last run failed.`;
  return run.outcome.startsWith('failed') ? `${kind}: the last run ${run.outcome}.` : null;
}

/**
 * "90 s behind", "12 min ahead of": which way a worker's clock is off, and by how much (in seconds
 * up to 10 minutes, the figure an operator compares with `date` on that host).
 */
export function skewWords(skewSeconds: number): string {
  const off = Math.abs(Math.round(skewSeconds));
  return `${off < 600 ? `${off} s` : spanOf(off)} ${skewSeconds < 0 ? 'behind' : 'ahead of'}`;
}

/** A worker whose clock is off by more than CLOCK_SKEW_WARN_SECONDS, in words an operator acts on. */
function skewLine(worker: WorkerSeen): string | null {
  const skew = worker.clockSkewSeconds;
  if (skew === null || Math.abs(skew) <= CLOCK_SKEW_WARN_SECONDS) return null;
  return (
    `Worker ${worker.host}:${worker.pid}'s clock is ${skewWords(skew)} Redis's: sync-button deadlines ` +
    `use the database's clock, but fix the time sync (NTP) on that host: its delayed jobs and log times follow its own clock.`
  );
}

export interface JudgeInput {
  workers: WorkerSeen[];
  queues: QueueHealth[] | null;
  redisError: string | null;
  latest: LatestRun[];
}

/** The banner: whether syncs happen, and what needs a look, worst first. */
export function judgeHealth(input: JudgeInput): { state: HealthState; findings: string[] } {
  const problems: string[] = [];
  const attention: string[] = [];
  const takingJobs = input.workers.filter((w) => w.queues.length > 0);
  const scheduling = input.workers.filter((w) => w.schedules !== null);
  const failed = (input.queues ?? []).reduce((n, q) => n + q.failed, 0);
  const stalled = (input.queues ?? []).reduce((n, q) => n + q.stalled, 0);
  if (input.redisError) {
    problems.push(`Redis could not be read (${input.redisError}): whether a worker runs is unknown.`);
  } else if (input.workers.length === 0) {
    problems.push('No worker is running: queued and scheduled syncs wait until `ledgersync worker` runs.');
  } else if (takingJobs.length === 0) {
    problems.push('No worker takes jobs (every running worker was started with --no-workers).');
  }
  if (stalled > 0) {
    problems.push(
      `${plural(stalled, 'stalled job')}: the worker running ${stalled === 1 ? 'it' : 'them'} stopped; a running worker takes ${stalled === 1 ? 'it' : 'them'} up again.`,
    );
  }
  if (!input.redisError && input.workers.length > 0 && scheduling.length === 0) {
    attention.push('No worker runs the schedules (--no-schedules): syncs run only when triggered.');
  }
  for (const worker of input.workers) {
    const line = skewLine(worker);
    if (line) attention.push(line);
  }
  if (failed > 0) {
    attention.push(`${plural(failed, 'failed job')} kept for a week: see the queue dashboard.`);
  }
  for (const { kind, lastRun } of input.latest) {
    const line = lastRun ? failedRunLine(kind, lastRun) : null;
    if (line) attention.push(line);
  }
  if (problems.length > 0) return { state: 'problem', findings: [...problems, ...attention] };
  if (attention.length > 0) return { state: 'attention', findings: attention };
  const youngest = Math.min(...takingJobs.map((w) => w.ageSeconds));
  return {
    state: 'ok',
    findings: [
      `${plural(takingJobs.length, 'worker')} up (heartbeat ${youngest} s ago); no failed or stalled jobs.`,
    ],
  };
}

/**
 * A consent the business revoked (or never gave) stops every sync: a problem, first. One that
 * ends soon needs a look. Nothing changes under client credentials (no standing).
 */
function withGrant(
  judged: { state: HealthState; findings: string[] },
  grant: GrantStanding | null,
): { state: HealthState; findings: string[] } {
  if (grant?.problem) {
    const rest = judged.state === 'ok' ? [] : judged.findings;
    return { state: 'problem', findings: [grant.problem, ...rest] };
  }
  if (grant?.attention) {
    const rest = judged.state === 'ok' ? [] : judged.findings;
    return {
      state: judged.state === 'problem' ? 'problem' : 'attention',
      findings: [...rest, grant.attention],
    };
  }
  return judged;
}

/**
 * The health of the worker: heartbeats and queues (Redis), the last good run of each kind
 * (Postgres), the next scheduled run of each kind (the cron expressions the workers run), and
 * the banner judged from them. A Redis that cannot be read is itself a finding; Postgres errors
 * fail the report, as the rest of it comes from there.
 */
export async function readHealth(
  sql: Sql,
  connectionId: string,
  sources: HealthSources,
  latest: LatestRun[],
  now = Date.now(),
): Promise<Health> {
  let redisSide: { heartbeats: HeardBeat[]; queues: QueueHealth[] } | null = null;
  let redisError: string | null = null;
  try {
    redisSide = await within(readRedisSide(sources), sources.timeoutMs ?? 3_000);
  } catch (error) {
    redisError = classifyRedisError(error) === 'other' ? String((error as Error).message) : redisCause(error);
  }
  const workers: WorkerSeen[] = (redisSide?.heartbeats ?? []).map(({ ageMs, clockSkewMs, ...beat }) => ({
    ...beat,
    ageSeconds: seconds(ageMs),
    // || 0: a skew that rounds to nothing is 0, not -0.
    clockSkewSeconds: clockSkewMs === null ? null : seconds(clockSkewMs) || 0,
  }));
  const queues = redisSide?.queues ?? null;
  const schedules = workers.find((w) => w.schedules !== null)?.schedules ?? null;
  const next = schedules ? nextScheduledRuns(schedules) : new Map<string, Date | null>();
  const good = new Map((await lastGoodRuns(sql, connectionId)).map((r) => [r.kind, r]));
  const kinds: KindTiming[] = TIMING_KINDS.map((kind) => {
    const run = good.get(kind);
    const at = next.get(kind);
    return {
      kind,
      lastGoodRun: run
        ? {
            finishedAt: new Date(run.finishedAt).toISOString(),
            ageSeconds: Math.max(0, seconds(now - new Date(run.finishedAt).getTime())),
            trigger: run.trigger,
          }
        : null,
      nextScheduledRun: at
        ? { at: at.toISOString(), inSeconds: Math.max(0, seconds(at.getTime() - now)) }
        : null,
    };
  });
  const judged = withSubscriptionFindings(
    withGrant(
      judgeHealth({ workers, queues, redisError, latest }),
      sources.grantClientId ? await grantStanding(sql, sources.grantClientId, now) : null,
    ),
    await subscriptionCheckFindings(sql, now),
  );
  return {
    ...judged,
    workers,
    queues,
    redisError,
    failedJobs: (queues ?? []).reduce((n, q) => n + q.failed, 0),
    stalledJobs: (queues ?? []).reduce((n, q) => n + q.stalled, 0),
    kinds,
  };
}
