/**
 * Operations: what an operator reads about a running installation. `status` (the command and the
 * operator page) and the Prometheus metrics share its reads of the worker's tables and queues:
 * health (worker heartbeats, failed and stalled jobs, last good and next runs), the per-kind
 * report and its history, and the metrics registry. It only reads; nothing here syncs.
 */
export { cachedRead } from './cached.ts';
export { ageOf, clockOf, formatStatus, untilOf } from './format-status.ts';
export { type Health, type HealthState, lastGoodRuns, type WorkerSeen } from './health.ts';
export { createMetrics, type Metrics } from './metrics.ts';
export { spanOf } from './span.ts';
export { OUTBOX_STEP_MS, type StatusHistory } from './status-history.ts';
export { type KindStatus, type StatusReport, statusReport } from './status-report.ts';
export { recordSubscriptionCheck, type SubscriptionCheckOutcome } from './subscription-check.ts';
export { type RunningHeartbeat, readHeartbeats, startHeartbeat } from './worker-heartbeat.ts';
