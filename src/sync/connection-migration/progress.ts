import type { Sql } from 'postgres';
import { migrationLockName } from './lock-names.ts';
import {
  isTerminal,
  MIGRATION_STATES,
  type MigrationState,
  STEP_RESULT,
  STEPS,
  type StepName,
} from './states.ts';
import { latestMigration } from './store.ts';

/** The `migrate prepare` job as the queue shows it (jobs/connection-migration.ts reads it). */
export interface MigrationJobView {
  id: string;
  /** active, waiting, delayed, failed, completed... as BullMQ names it. */
  state: string;
  attemptsMade: number;
  /** The last step the job reported (its progress), if any. */
  progress: unknown;
  failedReason: string | null;
  enqueuedAt: string;
}

/**
 * Where the latest migration stands, from the worker's own tables only (no platform call): for
 * `status`, `status --json` and the status page. `migrate status` adds the platform's view of both
 * connections.
 */
export interface MigrationProgress {
  id: string;
  provider: string;
  state: MigrationState;
  /** in_progress (steps left), ready (waiting for the customer to switch), switched, abandoned. */
  phase: 'in_progress' | 'ready' | 'switched' | 'abandoned';
  steps: Array<{ step: StepName; done: boolean }>;
  done: number;
  total: number;
  /** The step a run does next (the one running now, when `running`). */
  nextStep: StepName | null;
  /** A `migrate prepare` holds the migration's lock right now (a job or a command). */
  running: boolean;
  sourceConnectionId: string;
  targetConnectionId: string | null;
  startedAt: string;
  updatedAt: string;
  readyAt: string | null;
  finishedAt: string | null;
  /** Why the last run stopped; cleared by the next step done. */
  lastError: string | null;
  job: MigrationJobView | null;
}

export async function migrationProgress(
  sql: Sql,
  options: { job?: () => Promise<MigrationJobView | null> } = {},
): Promise<MigrationProgress | null> {
  const row = await latestMigration(sql);
  if (!row) return null;
  const steps = STEPS.map((step) => ({ step, done: reached(row.state, STEP_RESULT[step]) }));
  const job = options.job ? await options.job().catch(() => null) : null;
  return {
    id: row.id,
    provider: row.provider,
    state: row.state,
    phase:
      row.state === 'ready'
        ? 'ready'
        : row.state === 'switched' || row.state === 'abandoned'
          ? row.state
          : 'in_progress',
    steps,
    done: steps.filter((s) => s.done).length,
    total: STEPS.length,
    nextStep: isTerminal(row.state) ? null : (steps.find((s) => !s.done)?.step ?? null),
    running: !isTerminal(row.state) && (await lockHeld(sql, await migrationLockName(sql))),
    sourceConnectionId: row.sourceConnectionId,
    targetConnectionId: row.targetConnectionId,
    startedAt: row.startedAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    lastError: row.state === 'ready' || isTerminal(row.state) ? null : row.lastError,
    job,
  };
}

/** Whether `state` is at or past `wanted` on the way to switched (abandoned reaches nothing). */
function reached(state: MigrationState, wanted: MigrationState): boolean {
  if (state === 'abandoned') return false;
  return MIGRATION_STATES.indexOf(state) >= MIGRATION_STATES.indexOf(wanted);
}

/**
 * Whether a session holds the advisory lock `name` (src/sync/advisory-lock.ts takes
 * pg_try_advisory_lock(hashtext(name)): the bigint key is split into classid, the high half, and
 * objid, the low half, with objsubid 1).
 */
async function lockHeld(sql: Sql, name: string): Promise<boolean> {
  const [row] = await sql<{ held: boolean }[]>`
    select exists (
      select 1 from pg_locks
       where locktype = 'advisory' and granted and objsubid = 1
         and database = (select oid from pg_database where datname = current_database())
         and ((classid::bigint << 32) | objid::bigint) = hashtext(${name})::bigint
    ) as held`;
  return row?.held ?? false;
}
