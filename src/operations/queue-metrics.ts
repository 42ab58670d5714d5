import type { Queue } from 'bullmq';
import { Gauge, type Registry } from 'prom-client';
import type { Logger } from '../log.ts';
import { cachedRead } from './cached.ts';
import { QUEUE_DEPTH_STATES, type QueueDepth, readQueueDepth } from './queue-snapshot.ts';

export interface QueueMetricsOptions {
  queues: Queue[];
  log: Logger;
  /** Counts are kept this long: scrapes, however frequent, cost one read of each queue per period. */
  cacheMs?: number;
  /** A scrape waits this long for Redis, then shows the last counts read. */
  timeoutMs?: number;
}

/**
 * `ledgersync_queue_jobs{queue, state}`: the jobs in each queue by state (waiting, active,
 * delayed, failed), read from Redis when scraped, as BullMQ counts them. Every replica sees the
 * same queues: aggregate with max(), not sum(). `ledgersync_metrics_queues_up` says whether the
 * last read succeeded (0: the counts shown are the last ones read).
 */
export function queueMetrics(registry: Registry, options: QueueMetricsOptions): void {
  const { queues, log } = options;
  const read = cachedRead(
    () => Promise.all(queues.map(readQueueDepth)),
    options.cacheMs ?? 5_000,
    options.timeoutMs ?? 2_000,
  );
  let last: QueueDepth[] | null = null;
  let ok = true;
  const depth = async (): Promise<QueueDepth[] | null> => {
    try {
      last = await read();
      ok = true;
    } catch (error) {
      if (ok) log.warn({ err: error }, 'metrics could not read the queues; showing the last counts');
      ok = false;
    }
    return last;
  };
  new Gauge({
    name: 'ledgersync_queue_jobs',
    help: 'Jobs in each queue by state (waiting: ready to run; active: running; delayed: waiting for their time; failed: kept a week).',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      for (const q of (await depth()) ?? []) {
        for (const state of QUEUE_DEPTH_STATES) this.set({ queue: q.queue, state }, q[state]);
      }
    },
  });
  new Gauge({
    name: 'ledgersync_metrics_queues_up',
    help: '1 when the last read of the queue counts from Redis succeeded; 0 shows stale counts.',
    registers: [registry],
    async collect() {
      await depth();
      this.set(ok ? 1 : 0);
    },
  });
}
