/**
 * Job ids and deduplication ids derived from business ids, never random, so that every worker
 * replica computes the same id for the same trigger and BullMQ keeps one job. BullMQ refuses
 * ':' in custom ids, so the parts are joined with '|'.
 */

function part(value: string): string {
  return value.replaceAll(':', '_').replaceAll('|', '_');
}

/** 2025-01-06T10:00:00.000Z → 20250106T100000Z (ISO 8601 basic format: no ':'). */
export function compactIso(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll('-', '')
    .replaceAll(':', '');
}

/** One scheduled run per connection, kind and schedule window, however many replicas enqueue it. */
export function scheduledJobId(connectionId: string, kind: string, windowStart: Date): string {
  return ['sync', part(connectionId), part(kind), compactIso(windowStart)].join('|');
}

/**
 * Webhook-triggered syncs of one kind share this deduplication id: while a run waits, further
 * events are folded into it; while one runs, one follow-up waits (BullMQ keepLastIfActive).
 */
export function coalesceId(connectionId: string, kind: string): string {
  return ['ready', part(connectionId), part(kind)].join('|');
}

/** One sync-button run per sync_request_id (duplicate deliveries and replicas add nothing). */
export function syncButtonJobId(syncRequestId: string): string {
  return ['button', part(syncRequestId)].join('|');
}

export function watchdogJobId(syncRequestId: string): string {
  return ['watchdog', part(syncRequestId)].join('|');
}

/**
 * The start of the schedule window a cron tick belongs to: the latest whole second at or before
 * `firedAt` that the cron expression matches (looked back up to a minute). Replicas whose ticks
 * land a few milliseconds apart, or a tick delayed by a busy event loop, name the same window.
 */
export function windowStart(firedAt: Date, matches: (date: Date) => boolean): Date {
  const second = Math.floor(firedAt.getTime() / 1000) * 1000;
  for (let back = 0; back <= 60; back++) {
    const candidate = new Date(second - back * 1000);
    if (matches(candidate)) return candidate;
  }
  return new Date(second);
}
