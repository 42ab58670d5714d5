import { type Job, UnrecoverableError } from 'bullmq';
import type { AppContext } from '../src/app/app-context.ts';
import {
  DEFAULT_BACKUP_DIR,
  describeBlocker,
  type PrepareResult,
  prepareMigration,
} from '../src/sync/migration/index.ts';
import { recorded } from '../src/sync/runs/record-run.ts';
import { InvalidPayloadError, MIGRATION_QUEUE, MigrationPayload, parsePayload } from './payloads.ts';

export type MigrationApp = Pick<AppContext, 'sql' | 'erp' | 'platform' | 'syncPlatform' | 'log'>;

/** Another prepare holds the lock: a temporary condition, so BullMQ retries with backoff. */
export class MigrationBusyError extends Error {
  override name = 'MigrationBusyError';
}

/**
 * Thin processor: parse the payload, run `migrate prepare`, record the run, report each step as
 * progress. A stalled job recovered by BullMQ is safe to repeat: the migration resumes from its
 * state in Postgres. A precondition not met or a refused preload needs a person, so the job
 * fails without retrying, with the message that says what to do.
 */
export async function processMigration(job: Job, app: MigrationApp): Promise<PrepareResult> {
  let payload: MigrationPayload;
  try {
    payload = parsePayload(MigrationPayload, job.data, MIGRATION_QUEUE);
  } catch (error) {
    if (error instanceof InvalidPayloadError) throw new UnrecoverableError(error.message);
    throw error;
  }
  const steps: string[] = [];
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
          steps.push(event.step);
          void job
            .updateProgress({ step: event.step, detail: event.detail, done: [...steps] })
            .catch(() => undefined);
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
