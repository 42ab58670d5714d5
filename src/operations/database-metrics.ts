import type { Sql } from 'postgres';
import { Gauge, type Metric, type Registry } from 'prom-client';
import type { Logger } from '../log.ts';
import { cachedRead } from './cached.ts';
import {
  type ButtonLatency,
  FAILURE_CATEGORIES,
  type LedgerTotals,
  type OutboxDepth,
  readButtonLatency,
  readLastSuccess,
  readLedgerTotals,
  readOutbox,
} from './database-snapshot.ts';

export interface DatabaseMetricsOptions {
  sql: Sql;
  connectionId: string;
  log: Logger;
  /** Outbox and sync-button reads are kept this long (cheap reads on partial indexes). */
  cacheMs?: number;
  /** Ledger totals count the connection's whole ledger: kept longer. */
  ledgerCacheMs?: number;
  /** A scrape waits this long for Postgres, then shows the last values read. */
  timeoutMs?: number;
}

/** Seconds; the platform's sync-button window is 5 minutes (docs/platform.md G29). */
const BUTTON_LATENCY_BUCKETS = [1, 2.5, 5, 10, 20, 30, 60, 120, 180, 240, 300];

/** A read that falls back to the last good value (or null) and remembers whether it failed. */
function lastGood<T>(read: () => Promise<T>, log: Logger, what: string) {
  let value: T | null = null;
  let ok = true;
  const get = async (): Promise<T | null> => {
    try {
      value = await read();
      ok = true;
    } catch (error) {
      if (ok) log.warn({ err: error, what }, 'metrics could not read Postgres; showing the last values');
      ok = false;
    }
    return value;
  };
  return Object.assign(get, { ok: () => ok });
}

/**
 * Series computed from Postgres when scraped: outbox depth, reported outcomes by kind and
 * failure category, sync-button requests and their latency. Every replica shows the same
 * values: aggregate them with max(), not sum().
 */
export function databaseMetrics(registry: Registry, options: DatabaseMetricsOptions): void {
  const { sql, connectionId, log } = options;
  const cacheMs = options.cacheMs ?? 15_000;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const outbox = lastGood(
    cachedRead(() => readOutbox(sql, connectionId), cacheMs, timeoutMs),
    log,
    'outbox',
  );
  const ledger = lastGood(
    cachedRead(() => readLedgerTotals(sql, connectionId), options.ledgerCacheMs ?? 60_000, timeoutMs),
    log,
    'ledger totals',
  );
  const button = lastGood(
    cachedRead(() => readButtonLatency(sql, connectionId, BUTTON_LATENCY_BUCKETS), cacheMs, timeoutMs),
    log,
    'sync-button requests',
  );
  const lastSuccess = lastGood(
    cachedRead(() => readLastSuccess(sql, connectionId), cacheMs, timeoutMs),
    log,
    'last successful runs',
  );
  new Gauge({
    name: 'ledgersync_last_success_timestamp_seconds',
    help: 'When the last successful run of each kind (coa: the chart mirror) finished, in Unix seconds; alert on time() minus this.',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      for (const r of (await lastSuccess()) ?? []) this.set({ kind: r.kind }, r.at);
    },
  });
  outboxGauges(registry, outbox);
  ledgerGauges(registry, ledger);
  buttonSeries(registry, button);
  new Gauge({
    name: 'ledgersync_metrics_database_up',
    help: '1 when the last Postgres reads behind the database series succeeded; 0 shows stale values.',
    registers: [registry],
    async collect() {
      await Promise.all([outbox(), ledger(), button(), lastSuccess()]);
      this.set(outbox.ok() && ledger.ok() && button.ok() && lastSuccess.ok() ? 1 : 0);
    },
  });
}

function outboxGauges(registry: Registry, read: () => Promise<OutboxDepth[] | null>): void {
  new Gauge({
    name: 'ledgersync_outbox_depth',
    help: 'Sync results waiting to be reported to the platform, by kind and stage (unbatched: not yet in a batch; frozen: in a batch not yet acknowledged).',
    labelNames: ['kind', 'stage'],
    registers: [registry],
    async collect() {
      const depth = await read();
      if (!depth) return;
      for (const d of depth) {
        this.set({ kind: d.kind, stage: 'unbatched' }, d.unbatched);
        this.set({ kind: d.kind, stage: 'frozen' }, d.frozenItems);
      }
    },
  });
  new Gauge({
    name: 'ledgersync_outbox_frozen_batches',
    help: 'Frozen result batches not yet acknowledged by the platform, by kind.',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      for (const d of (await read()) ?? []) this.set({ kind: d.kind }, d.frozenBatches);
    },
  });
}

function ledgerGauges(registry: Registry, read: () => Promise<LedgerTotals[] | null>): void {
  new Gauge({
    name: 'ledgersync_reported_objects',
    help: 'Objects whose outcome the platform acknowledged, by kind and result (synced, rejected by the platform, failed).',
    labelNames: ['kind', 'result'],
    registers: [registry],
    async collect() {
      for (const t of (await read()) ?? []) {
        const failed = FAILURE_CATEGORIES.reduce((n, c) => n + t.failed[c], 0);
        this.set({ kind: t.kind, result: 'synced' }, t.synced);
        this.set({ kind: t.kind, result: 'rejected' }, t.rejected);
        this.set({ kind: t.kind, result: 'failed' }, failed);
      }
    },
  });
  new Gauge({
    name: 'ledgersync_reported_failures',
    help: 'Reported failures by kind and category (user_actionable: a bookkeeper must fix; transient: retried; needs_integrator).',
    labelNames: ['kind', 'category'],
    registers: [registry],
    async collect() {
      for (const t of (await read()) ?? []) {
        for (const category of FAILURE_CATEGORIES) this.set({ kind: t.kind, category }, t.failed[category]);
      }
    },
  });
}

function buttonSeries(registry: Registry, read: () => Promise<ButtonLatency | null>): void {
  new Gauge({
    name: 'ledgersync_sync_button_requests',
    help: 'Sync-button requests by state (open, answered, expired).',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const latency = await read();
      if (!latency) return;
      for (const [state, n] of Object.entries(latency.states)) this.set({ state: state.toLowerCase() }, n);
    },
  });
  registry.registerMetric(snapshotHistogram(read));
}

/**
 * The sync-button latency as a Prometheus histogram whose buckets come from Postgres. prom-client's
 * Histogram only learns by observe(); the registry only needs name, help, type and get(), so this
 * small object gives it bucket counts computed by the database (exact, and stateless here).
 */
function snapshotHistogram(read: () => Promise<ButtonLatency | null>): Metric {
  const name = 'ledgersync_sync_button_latency_seconds';
  const help = 'Time from a sync-button press to its answer, for answered requests.';
  const get = async () => {
    const latency = await read();
    const values = latency
      ? [
          ...latency.buckets.map((b) => ({
            metricName: `${name}_bucket`,
            labels: { le: b.le },
            value: b.count,
          })),
          { metricName: `${name}_bucket`, labels: { le: '+Inf' }, value: latency.count },
          { metricName: `${name}_sum`, labels: {}, value: latency.sumSeconds },
          { metricName: `${name}_count`, labels: {}, value: latency.count },
        ]
      : [];
    return { name, help, type: 'histogram', aggregator: 'sum', values };
  };
  const metric = { name, help, type: 'histogram', aggregator: 'sum', get, reset: () => undefined };
  return metric as unknown as Metric;
}
