import { Counter, Histogram, type Registry } from 'prom-client';
import { type JobAttemptEvent, QUEUE_NAMES } from '../queue/index.ts';
import type { ObjectSyncSummary } from '../sync/objects/index.ts';
import { OBJECT_KINDS, type ObjectKindName } from '../sync/objects/index.ts';

/** Seconds: a sync-button run has 5 minutes, a full object sync may take much longer. */
const JOB_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/** The summary an object-sync or sync-button job returned, when it ran (not skipped, not busy). */
export function summaryOf(result: unknown): ObjectSyncSummary | null {
  if (typeof result !== 'object' || result === null || !('summary' in result)) return null;
  const summary = (result as { summary: unknown }).summary as Partial<ObjectSyncSummary> | null;
  if (typeof summary !== 'object' || summary === null || summary.busy) return null;
  if (!OBJECT_KINDS.includes(summary.kind as ObjectKindName)) return null;
  if (typeof summary.posted !== 'number' || typeof summary.failed !== 'number') return null;
  return summary as ObjectSyncSummary;
}

/**
 * Series fed by the workers' finished attempts: job durations per queue and outcome, and what
 * each object sync did (from its ObjectSyncSummary). Counts are this process's own.
 */
export function jobMetrics(registry: Registry): (event: JobAttemptEvent) => void {
  const duration = new Histogram({
    name: 'ledgersync_job_duration_seconds',
    help: 'Duration of one job attempt, by queue and outcome (a failed attempt may be retried).',
    labelNames: ['queue', 'status'],
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const objects = new Counter({
    name: 'ledgersync_objects_total',
    help: 'Objects handled by object syncs in this process, by kind and outcome (synced: written to the ERP; failed: refused or invalid, reported with a category; skipped: nothing to write; unreadable: no readable id).',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const reported = new Counter({
    name: 'ledgersync_results_reported_total',
    help: 'Sync results acknowledged by the platform, by kind and platform answer (accepted or rejected).',
    labelNames: ['kind', 'answer'],
    registers: [registry],
  });
  return (event) => {
    if (event.durationMs !== null) {
      duration.observe({ queue: QUEUE_NAMES[event.queue], status: event.status }, event.durationMs / 1000);
    }
    const summary = event.status === 'completed' ? summaryOf(event.result) : null;
    if (!summary) return;
    const { kind } = summary;
    objects.inc({ kind, outcome: 'synced' }, summary.posted);
    objects.inc({ kind, outcome: 'failed' }, summary.failed);
    objects.inc({ kind, outcome: 'skipped' }, summary.skipped);
    objects.inc({ kind, outcome: 'unreadable' }, summary.unreadable);
    const rejected = summary.reported.rejected;
    reported.inc({ kind, answer: 'accepted' }, Math.max(0, summary.reported.items - rejected));
    reported.inc({ kind, answer: 'rejected' }, rejected);
  };
}
