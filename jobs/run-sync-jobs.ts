import type { Job } from 'bullmq';
import type { AppContext } from '../src/app/index.ts';
import { enqueueCoalescedSync, type Queues, type SyncObjectsPayload } from '../src/queue/index.ts';
import type { MirrorSummary } from '../src/sync/mirror/index.ts';
import type { ObjectSyncSummary } from '../src/sync/objects/index.ts';
import { processCoaMirror } from './coa-mirror.ts';
import { PAUSED_FOR_GRANT, pausedForGrant } from './grant-pause.ts';
import { processObjectSync } from './object-sync.ts';

export const SKIPPED_RUNNING = 'skipped: already running';

export type ObjectSyncJobResult =
  | { outcome: 'synced'; summary: ObjectSyncSummary }
  | { outcome: typeof SKIPPED_RUNNING; kind: string; followUp: boolean }
  | { outcome: typeof PAUSED_FOR_GRANT; kind: string; reason: string };

/**
 * One object sync job. Only one sync of a kind per connection runs at a time across every
 * process (the advisory lock in syncObjects); a job that finds it taken completes as "skipped:
 * already running" instead of failing. A webhook-triggered job leaves a delayed follow-up then,
 * because the run in progress may have passed the object its event was about.
 */
export async function runObjectSyncJob(
  job: Job,
  app: AppContext,
  queues: Queues,
  options: { busyRetryMs: number },
): Promise<ObjectSyncJobResult> {
  const kind = String((job.data as { kind?: unknown }).kind ?? 'objects');
  const paused = await pausedForGrant(job, app, kind);
  if (paused) return { outcome: PAUSED_FOR_GRANT, kind, reason: paused };
  const summary = await processObjectSync(job, app);
  if (!summary.busy) return { outcome: 'synced', summary };
  // processObjectSync parsed the payload: it is valid here.
  const payload = job.data as SyncObjectsPayload;
  const followUp = payload.trigger === 'webhook';
  if (followUp) {
    await enqueueCoalescedSync(queues, payload.connectionId, payload.kind, { delayMs: options.busyRetryMs });
  }
  return { outcome: SKIPPED_RUNNING, kind: payload.kind, followUp };
}

export type CoaMirrorJobResult =
  | { outcome: 'mirrored'; summary: MirrorSummary }
  | { outcome: typeof SKIPPED_RUNNING; kind: 'coa'; followUp: false }
  | { outcome: typeof PAUSED_FOR_GRANT; kind: 'coa'; reason: string };

export async function runCoaMirrorJob(job: Job, app: AppContext): Promise<CoaMirrorJobResult> {
  const paused = await pausedForGrant(job, app, 'coa');
  if (paused) return { outcome: PAUSED_FOR_GRANT, kind: 'coa', reason: paused };
  const summary = await processCoaMirror(job, app);
  if (summary.busy) return { outcome: SKIPPED_RUNNING, kind: 'coa', followUp: false };
  return { outcome: 'mirrored', summary };
}
