import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which lane of the rate limiter a platform request queues in. "priority" is for work someone
 * is waiting on (a sync-button press, docs/platform.md G28); everything else is "bulk".
 */
export type Lane = 'priority' | 'bulk';

const lane = new AsyncLocalStorage<Lane>();

/**
 * Runs fn with every platform request it starts, however deep (token requests and retries
 * included), in the rate limiter's priority lane. The lane follows the async context, so the
 * code inside needs no change.
 */
export function runWithPriority<T>(fn: () => T): T {
  return lane.run('priority', fn);
}

/** The lane of the calling context: "bulk" outside runWithPriority. */
export function currentLane(): Lane {
  return lane.getStore() ?? 'bulk';
}
