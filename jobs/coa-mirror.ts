import type { Job } from 'bullmq';
import type { AppContext } from '../src/app/index.ts';
import { CoaMirrorPayload, QUEUE_NAMES } from '../src/queue/index.ts';
import { type MirrorProgress, type MirrorSummary, mirrorChart } from '../src/sync/mirror/index.ts';
import { recorded } from '../src/sync/runs/record-run.ts';
import { parseJobData } from './parse-job.ts';

export type CoaMirrorDeps = Pick<AppContext, 'sql' | 'erp' | 'platform' | 'log'>;

/**
 * Thin processor: parse the payload, mirror the chart of accounts, record the run, report
 * progress. A stalled job recovered by BullMQ is safe to repeat: the mirror resumes from id_map
 * and adopts what a killed run uploaded without recording (docs/platform.md F12).
 */
export async function processCoaMirror(job: Job, deps: CoaMirrorDeps): Promise<MirrorSummary> {
  const payload = parseJobData(CoaMirrorPayload, job.data, QUEUE_NAMES.coaMirror);
  const run = {
    connectionId: payload.accountingConnectionId ?? payload.connectionId,
    kind: 'coa',
    trigger: payload.trigger,
  };
  // Another process mirroring the same connection: the summary says busy: true, nothing was done.
  return recorded(deps.sql, run, () =>
    mirrorChart(
      {
        sql: deps.sql,
        erp: deps.erp,
        platform: deps.platform,
        connectionId: payload.connectionId,
        log: deps.log.child({ job: job.id, kind: 'coa' }),
        onProgress: (p) => void job.updateProgress(progressOf(p)).catch(() => undefined),
      },
      payload.accountingConnectionId ? { accountingConnectionId: payload.accountingConnectionId } : {},
    ),
  );
}

/** What a job shows while it runs: the kind, its items done of planned, and counts per kind. */
function progressOf(p: MirrorProgress): Record<string, unknown> {
  const counts: Record<string, Record<string, number>> = {};
  for (const [kind, s] of Object.entries(p.kinds)) {
    counts[kind] = {
      created: s.created,
      updated: s.updated,
      deactivated: s.deactivated,
      reactivated: s.reactivated,
      hidden: s.hidden,
      adopted: s.adopted,
      failed: s.failed.length,
    };
  }
  return { kind: p.kind, phase: p.phase, done: p.done, total: p.total, writeCalls: p.writeCalls, counts };
}
