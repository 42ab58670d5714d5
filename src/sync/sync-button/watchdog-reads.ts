import { sleep } from '../../platform/index.ts';
import type { WatchdogDeps, WatchdogRequest } from './answer-unfinished.ts';
import { databaseTime, hasUnansweredRows } from './attribute-rows.ts';
import { readRequested } from './observe-requested.ts';
import { latencySeen } from './platform-latency.ts';
import { movingReadCursor } from './read-cursor.ts';
import { getSyncRequest, type ReadCursor, readCursor } from './requests.ts';
import { leadBounds, readFits, watchdogTimes } from './watchdog-lead.ts';

// The watchdog's time before its answer (answer-unfinished.ts): reading what no read of the
// press has reached, and waiting for the moment the answer is due.

/** What the watchdog did until its answer was due: the request closed meanwhile, or the slowest read seen. */
export interface Waited {
  closed: string | null;
  readPageMs: number | null;
}

/**
 * Until the answer is due (watchdog-lead.ts): reads what no read of the press has reached, a page
 * at a time, from `readFrom` on and while a page still ends before `answerAt`; otherwise waits,
 * looking again every little while, since the run may answer the whole request first, or stop
 * reading (then the pages left are read from where it stopped). Every look takes the latency
 * and the read cursor afresh, so a platform that slows down brings the reading forward.
 */
export async function readUntilAnswer(
  deps: WatchdogDeps,
  request: WatchdogRequest,
  options: { answerNow?: boolean },
): Promise<Waited> {
  const scope = { connectionId: request.connectionId, objectType: request.objectType };
  let reader: Reader | null = null;
  // False once a page no longer fits before the answer, or a read failed: the rest is waited out.
  let reading = true;
  try {
    for (;;) {
      const row = await getSyncRequest(deps.sql, request.syncRequestId);
      const seen = await latencySeen(deps.sql, request.connectionId);
      const waited = { closed: null, readPageMs: seen.readPageMs };
      if (!row || (row.state !== 'OPEN' && row.state !== 'ANSWERED'))
        return { ...waited, closed: row?.state ?? 'unknown' };
      if (row.state === 'ANSWERED' && !(await hasUnansweredRows(deps.sql, scope, request.syncRequestId))) {
        return { ...waited, closed: row.state };
      }
      const cursor = await readCursor(deps.sql, request.syncRequestId);
      // A request its run answered was read to the end by it.
      const complete = row.state === 'ANSWERED' || cursor?.complete === true;
      const times = watchdogTimes(row, seen, { pages: cursor?.pages ?? 0, complete });
      const now = (await databaseTime(deps.sql)).getTime();
      if (!options.answerNow && now >= times.answerAt) return waited;
      // The reading begins a look early: `readFrom` is the latest start that reads every page left.
      const lookAgainMs = leadBounds(row.deadline.getTime() - row.requestedAt.getTime()).recheckMs / 6;
      const readAt = times.readFrom - lookAgainMs;
      const due = reading && !complete && (options.answerNow || now >= readAt);
      // A page that would end after the answer is not begun: the answer goes out on time.
      if (due && (options.answerNow || readFits(now, times, seen))) {
        // Another read got further (the run goes on reading): the reading goes on from there.
        if (!reader || (cursor?.pages ?? 0) > reader.at) {
          reader?.close();
          reader = openReader(deps, request, cursor);
        }
        const within = options.answerNow ? null : times.answerAt - now;
        if ((await reader.next(within)) !== 'read') reading = false;
        continue;
      }
      if (due) reading = false;
      if (options.answerNow) return waited;
      const wakeAt = reading && !complete ? Math.min(readAt, times.answerAt) : times.answerAt;
      await sleep(Math.max(1, Math.min(lookAgainMs, wakeAt - now)));
    }
  } finally {
    reader?.close();
  }
}

/** One read of the requested rows the watchdog goes on with, and how far along the list it is. */
interface Reader {
  /** Pages of the list read up to here, counted as the read cursor counts them. */
  at: number;
  /**
   * The next page: 'read' once it is recorded and the cursor moved, 'late' when it has not come
   * within `withinMs` (it is recorded when it comes; the answer does not wait for it), 'failed'
   * when the read failed (after the client's retries): the reading ends, not the answer.
   */
  next(withinMs: number | null): Promise<'read' | 'late' | 'failed'>;
  close(): void;
}

/**
 * A read of the press's requested rows from its read cursor's page.next, or from the first page
 * when no read has listed any yet; each page recorded and attributed, and the cursor moved, as
 * any read's (observe-requested.ts, read-cursor.ts).
 */
function openReader(deps: WatchdogDeps, request: WatchdogRequest, cursor: ReadCursor | null): Reader {
  const scope = { connectionId: request.connectionId, objectType: request.objectType };
  const resumeFrom = cursor && cursor.pages > 0 && cursor.next !== null ? cursor.next : undefined;
  const from = resumeFrom === undefined ? 0 : (cursor?.pages ?? 0);
  const read = readRequested(deps, scope, resumeFrom === undefined ? {} : { resumeFrom });
  const iterator = movingReadCursor(deps.sql, request.syncRequestId, read, from)[Symbol.asyncIterator]();
  let busy = false;
  const reader: Reader = {
    at: from,
    async next(withinMs) {
      const pending = iterator.next();
      pending.catch(() => undefined); // a page given up on may fail later, unheard
      busy = true;
      try {
        const page = await (withinMs === null ? pending : beforeTimeout(pending, withinMs));
        if (page === 'late') return 'late';
        busy = false;
        if (page.done) return 'read';
        reader.at++;
        // A read from the first page that ends here is whole: ended as such, the rows it did not
        // list are no longer requested (attribute-rows.ts endRequestedRead).
        if (resumeFrom === undefined && page.value.more === false) await iterator.next();
        return 'read';
      } catch (error) {
        busy = false;
        deps.log.warn({ err: error }, 'the sync-button watchdog could not read the requested rows left');
        return 'failed';
      }
    },
    close() {
      // A page still on its way is left to come; the read then ends there, cut short.
      if (!busy) iterator.return(undefined).catch(() => undefined);
    },
  };
  return reader;
}

/** The promise's value, or 'late' when it has not settled within `ms`. */
async function beforeTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
