import type { AppContext } from '../app/index.ts';
import { EXIT } from '../exit-codes.ts';
import { RedisUnavailableError, redisHost } from '../infra/index.ts';
import { readHeartbeats } from '../operations/index.ts';
import {
  createQueues,
  EnqueueError,
  enqueueCoalescedMirror,
  enqueueCoalescedSync,
  enqueueWithin,
  type Queues,
} from '../queue/index.ts';
import { OBJECT_KINDS, type ObjectKindName } from '../sync/objects/index.ts';
import type { Runtime } from './runtime.ts';

/** How long each enqueue may take: Redis answered the command's PING moments ago. */
const ENQUEUE_WITHIN_MS = 5_000;

/** One run asked of the worker: the job that will run it (a waiting one it joined, or a new one). */
interface QueuedRun {
  kind: 'coa' | ObjectKindName;
  queue: string;
  jobId: string;
  /** BullMQ's state of that job: `active` means a run is under way and one more follows it. */
  state: string;
}

async function queueRun(queues: Queues, connectionId: string, kind: QueuedRun['kind']): Promise<QueuedRun> {
  const queue = kind === 'coa' ? queues.coaMirror : queues.objectSync;
  const jobId = await enqueueWithin(ENQUEUE_WITHIN_MS, () =>
    kind === 'coa'
      ? enqueueCoalescedMirror(queues, connectionId, 'operator')
      : enqueueCoalescedSync(queues, connectionId, kind, { trigger: 'operator' }),
  );
  return { kind, queue: queue.name, jobId, state: await queue.getJobState(jobId) };
}

function runLine(run: QueuedRun): string {
  if (run.state === 'active')
    return `${run.kind}: a run is under way (job ${run.jobId} on ${run.queue}); one more run follows it`;
  return `${run.kind}: queued as job ${run.jobId} on ${run.queue} (${run.state})`;
}

/** Whether a live worker takes jobs from the queues these runs went to; null when unknown. */
async function workerTakes(app: AppContext, prefix: string, runs: QueuedRun[]): Promise<boolean | null> {
  try {
    const beats = await readHeartbeats(app.redis, prefix);
    return runs.every((run) => beats.some((beat) => beat.queues.includes(run.queue)));
  } catch {
    return null;
  }
}

/**
 * `sync <what> --via-worker`: asks the worker for the run instead of running it here. The jobs go
 * where a webhook's go (src/queue/enqueue.ts: one waits per kind, however many ask), the chart mirror
 * first as `sync all` runs it; the queue dashboard shows them like any other job.
 */
export async function syncViaWorker(
  runtime: Runtime,
  app: AppContext,
  connectionId: string,
  what: 'all' | 'coa' | ObjectKindName,
  options: { json?: boolean },
): Promise<number> {
  const { config, services } = runtime;
  const kinds: QueuedRun['kind'][] = what === 'all' ? ['coa', ...OBJECT_KINDS] : [what];
  const queues = createQueues({ redisUrl: services.redisUrl, prefix: config.QUEUE_PREFIX });
  try {
    const runs: QueuedRun[] = [];
    for (const kind of kinds) runs.push(await queueRun(queues, connectionId, kind));
    const taken = await workerTakes(app, config.QUEUE_PREFIX, runs);
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ connectionId, queued: runs, workerRunning: taken })}\n`);
    } else {
      for (const run of runs) process.stdout.write(`${runLine(run)}\n`);
    }
    if (taken === false)
      process.stderr.write(
        'ledgersync: no running worker takes these jobs: they wait until `npx ledgersync worker` runs.\n',
      );
    else if (!options.json)
      process.stdout.write(
        'The worker runs them; follow them with `npx ledgersync status` or the queue dashboard.\n',
      );
    return EXIT.ok;
  } catch (error) {
    // The enqueue failed or Redis did not answer in time: Redis is unavailable (exit 69).
    if (error instanceof EnqueueError)
      throw new RedisUnavailableError(redisHost(services.redisUrl), error.cause ?? error);
    throw error;
  } finally {
    await queues.close();
  }
}
