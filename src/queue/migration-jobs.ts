import type { Job, JobType, Queue } from 'bullmq';
import type { MigrationJobView } from '../sync/connection-migration/index.ts';
import type { MigrationPayload } from './payloads.ts';

/** While a prepare job waits or runs, asking again adds nothing: one prepare at a time. */
const MIGRATION_DEDUPLICATION_ID = 'migration|prepare';

/**
 * `migrate prepare --queue`: the run as a job for the worker. Idempotent: while a prepare job
 * waits or runs, the same job is returned (`already: true`) and nothing is added.
 */
export async function enqueueMigration(
  queue: Queue,
  payload: MigrationPayload,
): Promise<{ jobId: string; already: boolean }> {
  const existing = await queue.getDeduplicationJobId(MIGRATION_DEDUPLICATION_ID);
  if (existing) {
    const state = await queue.getJobState(existing);
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') {
      return { jobId: existing, already: true };
    }
    // The job it named has ended: the id no longer stands for a waiting prepare.
    await queue.removeDeduplicationKey(MIGRATION_DEDUPLICATION_ID);
  }
  const job = await queue.add('migrate prepare', payload, {
    deduplication: { id: MIGRATION_DEDUPLICATION_ID },
  });
  return { jobId: String(job.id), already: false };
}

const JOB_STATES: JobType[] = ['active', 'waiting', 'delayed', 'prioritized', 'failed', 'completed'];

/** The most recently added prepare job, as `status` shows it; null when the queue has none. */
export async function latestMigrationJob(queue: Queue): Promise<MigrationJobView | null> {
  const jobs = (await queue.getJobs(JOB_STATES, 0, 20)).filter((j): j is Job => Boolean(j?.id));
  const latest = jobs.sort((a, b) => b.timestamp - a.timestamp)[0];
  if (!latest) return null;
  return {
    id: String(latest.id),
    state: await latest.getState(),
    attemptsMade: latest.attemptsMade,
    progress: latest.progress ?? null,
    failedReason: latest.failedReason || null,
    enqueuedAt: new Date(latest.timestamp).toISOString(),
  };
}
