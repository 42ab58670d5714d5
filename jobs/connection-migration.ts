import { type Job, UnrecoverableError } from 'bullmq';
import type { AppContext } from '../src/app/index.ts';
import { InvalidPayloadError, MIGRATION_QUEUE, MigrationPayload, parsePayload } from '../src/queue/index.ts';
import {
  ConnectionSwitchPendingError,
  connectionAfterSwitches,
  DEFAULT_BACKUP_DIR,
  describeBlocker,
  followSwitch,
  type PrepareResult,
  prepareMigration,
  rehomeSyncRequest,
} from '../src/sync/connection-migration/index.ts';
import type { MirrorProgress } from '../src/sync/mirror/index.ts';
import { recorded } from '../src/sync/runs/record-run.ts';

export type MigrationApp = Pick<AppContext, 'sql' | 'erp' | 'platform' | 'syncPlatform' | 'log'>;

/** Another prepare holds the lock: a temporary condition, so BullMQ retries with backoff. */
export class MigrationBusyError extends Error {
  override name = 'MigrationBusyError';
}

/** The preload reports every item; the job's progress is written at most this often. */
const PRELOAD_PROGRESS_EVERY_MS = 1_000;

/**
 * Thin processor: parse the payload, run `migrate prepare`, record the run, report each step
 * (and the preload's items) as progress. A job whose worker died is recovered by BullMQ and run
 * again: the migration resumes from its state in Postgres, checking again what is outstanding
 * first. A precondition not met or a refused preload needs a person, so the job fails without
 * retrying, with the message that says what to do.
 */
export async function processMigration(job: Job, app: MigrationApp): Promise<PrepareResult> {
  let payload: MigrationPayload;
  try {
    payload = parsePayload(MigrationPayload, job.data, MIGRATION_QUEUE);
  } catch (error) {
    if (error instanceof InvalidPayloadError) throw new UnrecoverableError(error.message);
    throw error;
  }
  const done: string[] = [];
  let last = { step: '', detail: '' };
  let reportedAt = 0;
  const report = (value: Record<string, unknown>) =>
    void job.updateProgress({ ...last, done: [...done], ...value }).catch(() => undefined);
  const run = {
    connectionId: payload.sourceConnectionId ?? null,
    kind: 'migration',
    trigger: payload.trigger,
  };
  const result = await recorded(app.sql, run, () =>
    prepareMigration(
      { ...app, log: app.log.child({ job: job.id, kind: 'migration' }) },
      {
        provider: payload.provider,
        sourceConnectionId: payload.sourceConnectionId,
        targetConnectionId: payload.targetConnectionId,
        force: payload.force,
        skipSync: payload.skipSync,
        backupDir: payload.backupDir ?? DEFAULT_BACKUP_DIR,
        onStep: (event) => {
          if (!done.includes(event.step)) done.push(event.step);
          last = { step: event.step, detail: event.detail };
          report({});
        },
        onPreloadProgress: (progress: MirrorProgress) => {
          const now = Date.now();
          if (now - reportedAt < PRELOAD_PROGRESS_EVERY_MS && progress.phase !== 'done') return;
          reportedAt = now;
          report({
            preload: {
              kind: progress.kind,
              phase: progress.phase,
              done: progress.done,
              total: progress.total,
            },
          });
        },
      },
    ),
  );
  if (result.outcome === 'busy') throw new MigrationBusyError(describeBlocker(result.blocker!));
  if (result.outcome === 'blocked' || result.outcome === 'incomplete') {
    throw new UnrecoverableError(describeBlocker(result.blocker!));
  }
  return result;
}

/** How long a job waits for a switch another process is recording before it retries later. */
export const SWITCH_PATIENCE_MS = 5_000;

/**
 * Jobs carry the connection they were addressed to: schedules and webhooks name the one the
 * worker started with, follow-ups the one of their run. Before such a job runs, a switch the
 * customer made in the platform is noticed (docs/platform.md G31, last row) and the job is
 * readdressed to the new connection, in memory (Redis keeps the payload as it was added). While a
 * run of the connection left is still going, the switch cannot be recorded yet: the job fails
 * with ConnectionSwitchPendingError (after waiting a few seconds for it) and its queue retries it
 * later, so no run of the old connection and the new one ever overlap.
 */
export async function followConnectionSwitch(
  job: Job,
  app: Pick<AppContext, 'sql' | 'platform' | 'log'>,
  options: { patienceMs?: number } = {},
) {
  const data = job.data as { connectionId?: unknown } | null;
  if (typeof data?.connectionId !== 'string') return job; // the processor refuses the payload
  let outcome = await followSwitch(app, data.connectionId);
  // Jobs that start together at the switch find the locks held by the one recording it: a
  // moment later the switch is recorded and they follow it, instead of failing an attempt.
  // The recorder is looked for in the worker's tables; the locks are tried again once a second.
  const patience = Date.now() + (options.patienceMs ?? SWITCH_PATIENCE_MS);
  for (let tick = 1; outcome.kind === 'pending' && Date.now() < patience; tick++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const after = await connectionAfterSwitches(app.sql, data.connectionId);
    if (after) outcome = { kind: 'followed', connectionId: after, left: data.connectionId };
    else if (tick % 4 === 0) outcome = await followSwitch(app, data.connectionId);
  }
  if (outcome.kind === 'pending') throw new ConnectionSwitchPendingError(outcome);
  if (outcome.connectionId !== data.connectionId) {
    app.log.debug(
      { job: job.id, from: data.connectionId, to: outcome.connectionId },
      'job addressed to the connection the customer left: it runs for the new one',
    );
    job.data = { ...data, connectionId: outcome.connectionId };
    const syncRequestId = (data as { syncRequestId?: unknown }).syncRequestId;
    if (typeof syncRequestId === 'string') {
      await rehomeSyncRequest(app.sql, syncRequestId, { from: data.connectionId, to: outcome.connectionId });
    }
  }
  return job;
}
