import { z } from 'zod';
import { BUTTON_OBJECTS } from '../src/sync/sync-button/index.ts';

/**
 * The fields of a worker's "job finished" line: what the job was about (its kind) and what it
 * did, counts and durations as numbers, so a log query can sum them. Job data comes from Redis
 * and results from the processors: both are read leniently, and a field that is not there is
 * left out rather than guessed.
 */
export type JobLineFields = Record<string, string | number>;

const Count = z.number().int().nonnegative();

/** What an object sync (and a sync-button run) returns as its summary (ObjectSyncSummary). */
const ObjectSummary = z.looseObject({
  kind: z.string(),
  read: Count,
  posted: Count,
  failed: Count,
  skipped: Count,
  unreadable: Count,
  vendorsCreated: Count.optional(),
  reported: z.looseObject({ batches: Count, items: Count, rejected: Count }),
});

/** The chart mirror's summary (MirrorSummary): per item kind, what was written. */
const MirrorSummary = z.looseObject({
  kinds: z.record(
    z.string(),
    z.looseObject({
      created: Count,
      updated: Count,
      deactivated: Count,
      reactivated: Count,
      hidden: Count,
      unhidden: Count.optional(),
      adopted: Count,
      unchanged: Count,
      failed: z.array(z.unknown()),
    }),
  ),
  writeCalls: Count,
});

/** The sync-button watchdog's answer (WatchdogResult). */
const WatchdogAnswer = z.looseObject({
  outcome: z.literal('answered'),
  failed: Count,
  adopted: Count,
  reported: z.looseObject({ items: Count, rejected: Count }),
});

const JobData = z.looseObject({
  kind: z.string().optional(),
  objectType: z.enum(['TRANSACTION', 'REIMBURSEMENT']).optional(),
});

/** The kind a job is about, from its payload: an object kind, or `coa` for the chart mirror. */
export function kindOfJob(queue: string, data: unknown): string | undefined {
  if (queue === 'coa-mirror') return 'coa';
  const parsed = JobData.safeParse(data);
  if (!parsed.success) return undefined;
  if (parsed.data.kind) return parsed.data.kind;
  return parsed.data.objectType ? BUTTON_OBJECTS[parsed.data.objectType].kind : undefined;
}

function objectCounts(summary: z.infer<typeof ObjectSummary>): JobLineFields {
  return {
    read: summary.read,
    posted: summary.posted,
    failed: summary.failed,
    skipped: summary.skipped,
    unreadable: summary.unreadable,
    reported: summary.reported.items,
    rejected: summary.reported.rejected,
  };
}

function mirrorCounts(summary: z.infer<typeof MirrorSummary>): JobLineFields {
  const kinds = Object.values(summary.kinds);
  const sum = (pick: (k: (typeof kinds)[number]) => number) => kinds.reduce((n, k) => n + pick(k), 0);
  return {
    created: sum((k) => k.created),
    updated: sum((k) => k.updated),
    deactivated: sum((k) => k.deactivated + k.hidden),
    reactivated: sum((k) => k.reactivated + (k.unhidden ?? 0)),
    adopted: sum((k) => k.adopted),
    unchanged: sum((k) => k.unchanged),
    failed: sum((k) => k.failed.length),
    writeCalls: summary.writeCalls,
  };
}

/** The counts a processor's result carries (see jobs/run-sync-jobs.ts and its siblings). */
export function resultCounts(result: unknown): JobLineFields {
  const fields: JobLineFields = {};
  const outcome = z.looseObject({ outcome: z.string() }).safeParse(result);
  if (outcome.success) fields.outcome = outcome.data.outcome;
  const withSummary = z.looseObject({ summary: z.unknown() }).safeParse(result);
  const summary = withSummary.success ? withSummary.data.summary : undefined;
  const objects = ObjectSummary.safeParse(summary);
  if (objects.success) return { ...fields, ...objectCounts(objects.data) };
  const mirror = MirrorSummary.safeParse(summary);
  if (mirror.success) return { ...fields, ...mirrorCounts(mirror.data) };
  const watchdog = WatchdogAnswer.safeParse(result);
  if (watchdog.success) {
    const w = watchdog.data;
    return { ...fields, failed: w.failed, adopted: w.adopted, reported: w.reported.items };
  }
  return fields;
}

/**
 * One finished attempt, for its log line: the queue, the job id, the kind, the duration in ms
 * and, for a completed one, the counts of its result.
 */
export function finishedJobFields(
  queue: string,
  job: { id?: string; data: unknown },
  durationMs: number | null,
  result?: unknown,
): JobLineFields {
  const fields: JobLineFields = { queue };
  if (job.id !== undefined) fields.job = job.id;
  const kind = kindOfJob(queue, job.data);
  if (kind) fields.kind = kind;
  if (durationMs !== null) fields.durationMs = durationMs;
  return result === undefined ? fields : { ...fields, ...resultCounts(result) };
}
