import type { Sql } from 'postgres';
import { databaseTime, hasUnansweredRows } from './attribute-rows.ts';
import { latencySeen } from './platform-latency.ts';
import { getSyncRequest, readCursor } from './requests.ts';
import { nextWatchdogWake } from './watchdog-lead.ts';
import type { ButtonObjectType } from './window.ts';

/**
 * How long a watchdog that woke now should wait before it starts (ms), or null to start now:
 * from the press's times, the latency seen and how far its reads got, on the database's clock
 * (watchdog-lead.ts nextWatchdogWake). A wait is a duration, so the caller's own clock, which may
 * be off, only counts it. A request closed, or answered by its run with nothing left, starts at
 * once: the watchdog finds nothing to do and ends.
 */
export async function watchdogWaitMs(
  sql: Sql,
  press: { syncRequestId: string; connectionId: string; objectType: ButtonObjectType },
): Promise<number | null> {
  const request = await getSyncRequest(sql, press.syncRequestId);
  if (!request || (request.state !== 'OPEN' && request.state !== 'ANSWERED')) return null;
  const scope = { connectionId: press.connectionId, objectType: press.objectType };
  if (request.state === 'ANSWERED' && !(await hasUnansweredRows(sql, scope, press.syncRequestId)))
    return null;
  const cursor = await readCursor(sql, press.syncRequestId);
  // A request its run answered was read to the end by it.
  const read = {
    pages: cursor?.pages ?? 0,
    complete: request.state === 'ANSWERED' || cursor?.complete === true,
  };
  const now = (await databaseTime(sql)).getTime();
  const wake = nextWatchdogWake(request, await latencySeen(sql, press.connectionId), read, now);
  return wake === null ? null : wake - now;
}
