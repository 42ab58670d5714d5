import { Counter, Histogram, type Registry } from 'prom-client';
import type { PlatformAttemptEvent } from '../platform/index.ts';
import { routeLabeller } from './platform-route.ts';

/** Seconds; the platform answers most calls well under a second and gives up at 60 s (504). */
const REQUEST_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds; waits come in rate windows of 10 s (F3), after a 429 pause they can be longer. */
const WAIT_BUCKETS = [0.001, 0.01, 0.1, 0.5, 1, 2.5, 5, 10, 20, 60];

/**
 * Series fed by the platform client's observer (one event per HTTP attempt, retries included):
 * requests by route and status, their duration, 429 answers and the rate limiter's wait.
 */
export function platformMetrics(registry: Registry): (event: PlatformAttemptEvent) => void {
  const requests = new Counter({
    name: 'ledgersync_platform_requests_total',
    help: 'HTTP attempts to the platform API, by method, route and status (network_error: no response).',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'ledgersync_platform_request_duration_seconds',
    help: 'Duration of one HTTP attempt to the platform API, permit wait excluded.',
    labelNames: ['method', 'route'],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'ledgersync_platform_rate_limited_total',
    help: 'Platform answers with 429 (rate limited); each one pauses every process sharing the budget.',
    registers: [registry],
  });
  const wait = new Histogram({
    name: 'ledgersync_platform_limiter_wait_seconds',
    help: 'Time an attempt waited for a rate-limiter permit before it was sent.',
    buckets: WAIT_BUCKETS,
    registers: [registry],
  });
  const routeOf = routeLabeller();
  return (event) => {
    const route = routeOf(event.path);
    const status = event.status === null ? 'network_error' : String(event.status);
    requests.inc({ method: event.method, route, status });
    duration.observe({ method: event.method, route }, event.durationMs / 1000);
    wait.observe(event.waitMs / 1000);
    if (event.status === 429) rateLimited.inc();
  };
}
