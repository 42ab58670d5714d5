import type { Job } from 'bullmq';
import type { AppContext } from '../src/app/index.ts';
import { grantStanding } from '../src/platform/index.ts';
import { recordPausedRun } from '../src/sync/runs/record-run.ts';

export const PAUSED_FOR_GRANT = 'paused: the business must reconnect';

/**
 * Before a sync or mirror job runs under the Authorization Code grant: when the business's
 * consent is revoked or missing, nothing could succeed, so the job records a paused run with the
 * reason and completes (it does not fail every schedule tick). Returns the reason, or null to run.
 */
export async function pausedForGrant(job: Job, app: AppContext, kind: string): Promise<string | null> {
  const { config } = app;
  if (config.PLATFORM_GRANT !== 'authorization_code' || !config.PLATFORM_CLIENT_ID) return null;
  const standing = await grantStanding(app.sql, config.PLATFORM_CLIENT_ID);
  if (!standing.problem) return null;
  const data = job.data as { connectionId?: unknown; trigger?: unknown };
  await recordPausedRun(
    app.sql,
    {
      connectionId: typeof data.connectionId === 'string' ? data.connectionId : null,
      kind,
      trigger: typeof data.trigger === 'string' ? data.trigger : 'schedule',
    },
    standing.problem,
  );
  app.log.warn({ job: job.id, kind }, 'sync paused: the business must reconnect (ledgersync connect)');
  return standing.problem;
}
