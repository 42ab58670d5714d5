import type { Job } from 'bullmq';
import type { AppContext } from '../src/app/index.ts';
import { QUEUE_NAMES, SyncObjectsPayload } from '../src/queue/index.ts';
import { type ObjectSyncSummary, syncObjects } from '../src/sync/objects/index.ts';
import { recorded } from '../src/sync/runs/record-run.ts';
import { parseJobData } from './parse-job.ts';

/**
 * Thin processor: parse the payload, run one object sync, record the run, report progress.
 * A stalled job recovered by BullMQ is safe to repeat: the sync itself is idempotent.
 */
export async function processObjectSync(job: Job, app: AppContext): Promise<ObjectSyncSummary> {
  const payload = parseJobData(SyncObjectsPayload, job.data, QUEUE_NAMES.objectSync);
  return recorded(
    app.sql,
    { connectionId: payload.connectionId, kind: payload.kind, trigger: payload.trigger },
    () =>
      syncObjects(
        {
          sql: app.sql,
          erp: app.erp,
          platform: app.syncPlatform,
          connectionId: payload.connectionId,
          log: app.log.child({ job: job.id, kind: payload.kind }),
          onProgress: (p) =>
            void job.updateProgress({
              read: p.read,
              posted: p.posted,
              failed: p.failed,
              reported: p.reported.items,
            }),
        },
        payload.kind,
      ),
  );
}
