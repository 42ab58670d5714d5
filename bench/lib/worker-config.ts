import type { TrytonErpConfig } from '../../src/erp/index.ts';
import type { RateLimiterOptions } from '../../src/platform/index.ts';
import type { ObjectKindName } from '../../src/sync/objects/index.ts';

/** What bench/worker-child.ts does, passed as JSON in BENCH_WORKER. */
export interface WorkerConfig {
  task: 'sync' | 'all' | 'button' | 'mirror' | 'join';
  databaseUrl: string;
  redisUrl: string;
  /** Redis key prefix: processes of one scenario share it, and with it one rate budget. */
  redisPrefix: string;
  /** The worker's schema (sync_ledger, id_map, ...). */
  schema: string;
  ledgerSchema: string;
  apiUrl: string;
  connectionId: string;
  limiter?: Partial<RateLimiterOptions>;
  /** Post into Tryton instead of the built-in ERP (scenario 7). */
  tryton?: TrytonErpConfig;
  /** Kind, slices and read-ahead of an object sync (task sync) or of each sync-button run. */
  sync?: {
    kind: ObjectKindName;
    /** Unset: the product's defaults (SYNC_DEFAULTS). */
    slices?: number | undefined;
    readAhead?: number | undefined;
    /** Pages written at once (the pipeline's default when unset). */
    pageConcurrency?: number;
  };
  /** Smallest gap between two progress lines. */
  progressEveryMs?: number;
}

export interface MemoryParts {
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** This process's memory by part, in MB (10^6 bytes). */
export function memoryParts(): MemoryParts {
  const m = process.memoryUsage();
  const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
  return {
    heapTotal: mb(m.heapTotal),
    heapUsed: mb(m.heapUsed),
    external: mb(m.external),
    arrayBuffers: mb(m.arrayBuffers),
  };
}

/** Lines the child prints on stdout, one JSON object each. */
export type WorkerLine =
  | { bench: 'ready'; t: number }
  | {
      bench: 'progress';
      t: number;
      read: number;
      posted: number;
      failed: number;
      reported: number;
      /** process.memoryUsage() parts, MB. */
      mem?: MemoryParts;
    }
  | {
      bench: 'event';
      syncRequestId: string;
      arrivedAt: number;
      finishedAt: number;
      read: number;
      reported: number;
    }
  | {
      bench: 'done';
      t: number;
      startedAt: number;
      finishedAt: number;
      result: unknown;
      cpu: { userMs: number; systemMs: number };
      limiter: unknown;
      meter: unknown;
      heapUsedMiB: number;
    }
  | { bench: 'error'; message: string };

export function workerConfigFromEnv(): WorkerConfig {
  const raw = process.env.BENCH_WORKER;
  if (!raw) throw new Error('BENCH_WORKER (JSON) is required');
  const config = JSON.parse(raw) as WorkerConfig;
  for (const key of ['task', 'databaseUrl', 'redisUrl', 'redisPrefix', 'schema', 'apiUrl'] as const) {
    if (!config[key]) throw new Error(`BENCH_WORKER.${key} is required`);
  }
  return config;
}

export function emit(line: WorkerLine): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
