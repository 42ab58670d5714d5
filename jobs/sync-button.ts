import type { Job } from 'bullmq';
import type { AppContext } from '../src/app/index.ts';
import { runWithPriority } from '../src/platform/index.ts';
import { QUEUE_NAMES, SyncButtonPayload } from '../src/queue/index.ts';
import { recorded } from '../src/sync/runs/record-run.ts';
import { BUTTON_OBJECTS, runSyncButton, type SyncButtonOutcome } from '../src/sync/sync-button/index.ts';
import { parseJobData } from './parse-job.ts';

export type SyncButtonDeps = Pick<AppContext, 'sql' | 'erp' | 'platform' | 'syncPlatform' | 'log'>;

/**
 * Thin processor for a sync-button press (docs/platform.md G28): parse, run, record the run, report
 * progress. The run answers the rows attributed to its request (src/sync/sync-button/
 * attribute-rows.ts), with the sync_request_id after every page; the watchdog on its own queue
 * answers whatever of them is left shortly before the deadline.
 */
export function processSyncButton(job: Job, deps: SyncButtonDeps): Promise<SyncButtonOutcome> {
  // The customer waits on the press: its platform calls go ahead of the bulk sync's (rate-limiter.ts).
  return runWithPriority(() => processPress(job, deps));
}

async function processPress(job: Job, deps: SyncButtonDeps): Promise<SyncButtonOutcome> {
  const payload = parseJobData(SyncButtonPayload, job.data, QUEUE_NAMES.syncButton);
  const kind = BUTTON_OBJECTS[payload.objectType].kind;
  return recorded(deps.sql, { connectionId: payload.connectionId, kind, trigger: 'sync_button' }, () =>
    runSyncButton(
      {
        ...deps,
        log: deps.log.child({ job: job.id }),
        onProgress: (p) =>
          void job
            .updateProgress({ read: p.read, posted: p.posted, failed: p.failed, reported: p.reported.items })
            .catch(() => undefined),
      },
      { ...payload, deadline: new Date(payload.deadline) },
    ),
  );
}
