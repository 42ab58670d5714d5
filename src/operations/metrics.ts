import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { PlatformAttemptEvent } from '../platform/index.ts';
import type { JobAttemptEvent } from '../queue/index.ts';
import { VERSION } from '../version.ts';
import { type DatabaseMetricsOptions, databaseMetrics } from './database-metrics.ts';
import { jobMetrics } from './job-metrics.ts';
import { platformMetrics } from './platform-metrics.ts';
import { type QueueMetricsOptions, queueMetrics } from './queue-metrics.ts';

export interface Metrics {
  readonly registry: Registry;
  /** For PlatformClientOptions.observe: one call per HTTP attempt. */
  observePlatform(event: PlatformAttemptEvent): void;
  /** For WorkerSettings.observe: one call per finished job attempt. */
  observeJob(event: JobAttemptEvent): void;
  /**
   * Adds the Postgres-backed series (outbox, reported outcomes, sync button), read when scraped.
   * Once: the worker knows its connection only after the platform client exists.
   */
  watchDatabase(options: DatabaseMetricsOptions): void;
  /** Adds the queue depth series (jobs per queue and state), read from Redis when scraped. Once. */
  watchQueues(options: QueueMetricsOptions): void;
  /** The exposition text and its content type, for GET /metrics. */
  render(): Promise<{ contentType: string; body: string }>;
}

export interface MetricsOptions {
  /** The Postgres-backed series (outbox, reported outcomes, sync button); off without it. */
  database?: DatabaseMetricsOptions;
  /** Node.js process series (CPU, memory, event loop) under their standard names. Default on. */
  processMetrics?: boolean;
}

/**
 * The process's metrics: one registry (not prom-client's global one), fed by observers the
 * platform client and the workers call, and by Postgres reads when scraped. Domain code only
 * sees the observer functions; prom-client stays in this folder.
 */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  // Standard names (process_cpu_seconds_total, nodejs_heap_size_used_bytes, ...), as every
  // dashboard and alert written for Node.js expects them.
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'ledgersync_build_info',
    help: 'Always 1; the labels say which ledgersync and which Node.js this process runs.',
    labelNames: ['version', 'node'],
    registers: [registry],
  }).set({ version: VERSION, node: process.version }, 1);
  const observePlatform = platformMetrics(registry);
  const observeJob = jobMetrics(registry);
  let watching = false;
  const watchDatabase = (database: DatabaseMetricsOptions) => {
    if (watching) throw new Error('the database series are already registered');
    watching = true;
    databaseMetrics(registry, database);
  };
  if (options.database) watchDatabase(options.database);
  let watchingQueues = false;
  const watchQueues = (queues: QueueMetricsOptions) => {
    if (watchingQueues) throw new Error('the queue series are already registered');
    watchingQueues = true;
    queueMetrics(registry, queues);
  };
  return {
    registry,
    observePlatform,
    observeJob,
    watchDatabase,
    watchQueues,
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
