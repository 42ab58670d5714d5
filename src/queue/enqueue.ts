import type { Queue } from 'bullmq';
import type { ObjectKindName } from '../sync/objects/index.ts';
import { leadBounds, SYNC_WINDOW_MS } from '../sync/sync-button/index.ts';
import { coalesceId, scheduledJobId, syncButtonJobId, watchdogJobId } from './job-ids.ts';
import type { CoaMirrorPayload, SyncButtonPayload, SyncObjectsPayload, Trigger } from './payloads.ts';
import type { Queues } from './queues.ts';

/** Triggers only enqueue: these are the only ways work enters the queues. */

/** How long a webhook's enqueue may take before the delivery is answered 5xx (F21 redelivers). */
export const ENQUEUE_DEADLINE_MS = 2_000;

/** An enqueue that failed or did not finish in time; the job may or may not have been added. */
export class EnqueueError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'EnqueueError';
  }
}

/**
 * Runs an enqueue with a deadline. The producer connection fails at once while Redis is down
 * (src/queue/queues.ts); the deadline covers a Redis that accepts the connection and does not
 * answer. A late add is harmless: every enqueue here is idempotent by job or deduplication id.
 */
export async function enqueueWithin<T>(deadlineMs: number, enqueue: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new EnqueueError(`the queue did not answer within ${deadlineMs} ms`)),
      deadlineMs,
    );
  });
  const work = enqueue().catch((error: unknown) => {
    throw error instanceof EnqueueError ? error : new EnqueueError('the queue refused the job', error);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** A cron tick: one job per connection, kind and window across every replica. */
export async function enqueueScheduledSync(
  queues: Pick<Queues, 'objectSync'>,
  connectionId: string,
  kind: ObjectKindName,
  window: Date,
): Promise<void> {
  const data: SyncObjectsPayload = { connectionId, kind, trigger: 'cron' };
  await queues.objectSync.add(`sync ${kind}`, data, { jobId: scheduledJobId(connectionId, kind, window) });
}

export async function enqueueScheduledMirror(
  queues: Pick<Queues, 'coaMirror'>,
  connectionId: string,
  window: Date,
): Promise<void> {
  const data: CoaMirrorPayload = { connectionId, trigger: 'cron' };
  await queues.coaMirror.add('mirror chart', data, { jobId: scheduledJobId(connectionId, 'coa', window) });
}

/**
 * The deduplication id of a kind names the job new events fold into. When that job is active
 * but its lock has lapsed, the worker running it died (kill -9, a lost host): events folded into
 * it would wait until BullMQ finds it stalled and runs it again to the end. The id is released
 * instead, so the event makes a new run at once; the dead job, recovered later, finds the kind's
 * lock taken or nothing left to do. Best effort: when the check cannot be made, the event folds
 * as usual.
 */
async function releaseDeadRun(queue: Queue, deduplicationId: string): Promise<void> {
  try {
    const jobId = await queue.getDeduplicationJobId(deduplicationId);
    if (!jobId || (await queue.getJobState(jobId)) !== 'active') return;
    const client = await queue.getBackend().client;
    // BullMQ keeps a job's lock at <prefix>:<queue>:<job id>:lock while a live worker holds it.
    if ((await client.get(`${queue.toKey(jobId)}:lock`)) !== null) return;
    // Removes the id only while it still names that job (another event may have moved it on).
    await (await queue.getJob(jobId))?.removeDeduplicationKey();
  } catch {
    // The add below folds the event as it would have.
  }
}

/**
 * An event says objects of a kind may be ready: at most one run waits per kind, however many
 * events arrive (a burst of 1,000 makes one run). An event that arrives while a run is active
 * leaves exactly one follow-up, because the active run may already have passed that object; an
 * active run whose worker died does not hold events back (releaseDeadRun).
 */
export async function enqueueCoalescedSync(
  queues: Pick<Queues, 'objectSync'>,
  connectionId: string,
  kind: ObjectKindName,
  options: { trigger?: Trigger; delayMs?: number } = {},
): Promise<string> {
  const data: SyncObjectsPayload = { connectionId, kind, trigger: options.trigger ?? 'webhook' };
  return addCoalesced(
    queues.objectSync,
    `sync ${kind}`,
    data,
    coalesceId(connectionId, kind),
    options.delayMs,
  );
}

/**
 * The chart mirror asked for now (`sync coa --via-worker`), coalesced like an event's sync: at
 * most one waits, and one follows a run under way.
 */
export async function enqueueCoalescedMirror(
  queues: Pick<Queues, 'coaMirror'>,
  connectionId: string,
  trigger: Trigger,
): Promise<string> {
  const data: CoaMirrorPayload = { connectionId, trigger };
  return addCoalesced(queues.coaMirror, 'mirror chart', data, coalesceId(connectionId, 'coa'));
}

/**
 * Adds a job under a deduplication id and returns the id of the job it made or folded into (an
 * active one, when a follow-up now waits behind it).
 */
async function addCoalesced(
  queue: Queue,
  name: string,
  data: SyncObjectsPayload | CoaMirrorPayload,
  deduplicationId: string,
  delayMs?: number,
): Promise<string> {
  await releaseDeadRun(queue, deduplicationId);
  const job = await queue.add(name, data, {
    deduplication: { id: deduplicationId, keepLastIfActive: true },
    ...(delayMs ? { delay: delayMs } : {}),
  });
  return String(job.id);
}

/**
 * A sync-button press (docs/platform.md G28): the run on its own queue, and the watchdog on
 * another, so neither waits behind the other. The watchdog is due `watchdogLeadMs` before the
 * deadline when that is fixed (it is then carried in its payload); otherwise it first wakes at
 * the earliest start its bounds allow and sets its start from the latency seen by then
 * (jobs/watchdog.ts). `windowMs` is the press's window (the platform's 5 minutes unless a stub
 * was set to another). `now` is the database's time the deadline was set against
 * (src/server/webhooks/accept-event.ts), so this process's clock, which may be off, does not
 * enter the delay.
 */
export async function enqueueSyncButton(
  queues: Queues,
  payload: SyncButtonPayload,
  options: { watchdogLeadMs?: number | undefined; windowMs?: number; now: number },
): Promise<void> {
  const { now } = options;
  const windowMs = options.windowMs ?? SYNC_WINDOW_MS;
  const { watchdogLeadMs: _fixed, ...press } = payload;
  await queues.syncButton.add('sync button', press, { jobId: syncButtonJobId(payload.syncRequestId) });
  const fixed = options.watchdogLeadMs;
  const watchdog = fixed === undefined ? press : { ...press, watchdogLeadMs: fixed };
  const leadMs = fixed ?? leadBounds(windowMs).maxLeadMs;
  await queues.syncWatchdog.add('sync-button watchdog', watchdog, {
    jobId: watchdogJobId(payload.syncRequestId),
    delay: watchdogDelay(Date.parse(payload.deadline), now, leadMs, windowMs),
  });
}

/**
 * When the watchdog runs: `leadMs` before the deadline. A press that reaches us late (less than
 * the window left) also gets half of what is left before the watchdog answers, but never more
 * delay than a press received on time would (so a test's long lead still fires at once).
 */
export function watchdogDelay(
  deadline: number,
  now: number,
  leadMs: number,
  windowMs = SYNC_WINDOW_MS,
): number {
  const left = deadline - now;
  const onTime = windowMs - leadMs;
  return Math.max(0, Math.round(Math.max(left - leadMs, Math.min(left / 2, onTime))));
}
